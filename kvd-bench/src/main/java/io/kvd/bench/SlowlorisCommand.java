package io.kvd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code kvbench slowloris}: holds slow clients against a server (see {@link Slowloris}). Prints
 * {@code open N} once every connection is up, then at the end the commands completed and the
 * bytes sent; stops early, with an error, if the server closes a connection or answers wrongly.
 */
@Command(name = "slowloris", description = "Connections that each send a SET one byte per interval, read its +OK and start over.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run ended (its duration passed, or SIGTERM)", "1:the server closed a connection or answered wrongly"})
final class SlowlorisCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerOptions server;

    @Option(names = {"-c", "--connections"}, defaultValue = "1000", description = "Connections (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--interval", defaultValue = "100ms", converter = DurationConverter.class,
            description = "Time between two bytes of one connection (default: ${DEFAULT-VALUE}).")
    private Duration interval;

    @Option(names = "--duration", defaultValue = "60s", converter = DurationConverter.class,
            description = "Stop after this long (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--spread", description = "Space the connections' sends evenly over the interval instead of"
            + " sending one byte on every connection at each tick.")
    private boolean spread;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        ServerAddress address = server.address(spec);
        try (Slowloris slowloris = Slowloris.open(address.host(), address.port(), connections)) {
            out.println("open " + connections);
            out.flush();
            // SIGTERM and SIGINT end the run as its duration would: summary printed, exit 0
            // (slowloris.sh stops the trickler so and checks its exit code).
            SignalHandler term = Signal.handle(new Signal("TERM"), s -> slowloris.stop());
            SignalHandler interrupt = Signal.handle(new Signal("INT"), s -> slowloris.stop());
            int exitCode = 0;
            try {
                slowloris.run(interval, duration, spread);
            } catch (IOException e) {
                spec.commandLine().getErr().println(e.getMessage());
                exitCode = 1;
            } finally {
                Signal.handle(new Signal("TERM"), term);
                Signal.handle(new Signal("INT"), interrupt);
            }
            out.printf("done: %d commands completed, %d bytes sent by %d connections%n", slowloris.completed(),
                    slowloris.sent(), slowloris.connections());
            out.flush();
            return exitCode;
        }
    }
}
