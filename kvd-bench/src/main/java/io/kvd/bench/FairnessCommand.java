package io.kvd.bench;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code kvbench fairness}: PING round trips beside a bulk load (see {@link Fairness}), as one summary line. */
@Command(name = "fairness", sortOptions = false,
        description = "One connection SETs -n keys as redis-cli --pipe does while another sends PING every --interval:"
                + " how long does a PING wait beside a bulk load?",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every SET was answered +OK and every PING +PONG",
                "1:another reply, or a connection failed", "2:bad arguments"})
final class FairnessCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private ServerOptions server;

    @Option(names = {"-n", "--keys"}, defaultValue = "5000000",
            description = "SETs the loader sends, of keys key:%%012d from 0 (default: ${DEFAULT-VALUE}).")
    private long keys;

    @Option(names = "--interval", defaultValue = "1ms", converter = DurationConverter.class,
            description = "A PING is due at each tick of this interval; one answered after the next tick is followed at once"
                    + " (default: ${DEFAULT-VALUE}).")
    private Duration interval;

    @Option(names = "--label", description = "What to call the server (default: what INFO says: kvd or redis, and its version).")
    private String label;

    @Option(names = "--json", paramLabel = "FILE", description = "Append the results to FILE as one JSON line.")
    private Path json;

    @Option(names = "--flush", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Send FLUSHALL before the load, so that every SET creates its key (default: on).")
    private boolean flush;

    @Override
    public Integer call() throws InterruptedException {
        ServerAddress address = server.address(spec);
        checkArguments();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String serverName;
        FairnessResult result;
        try {
            try (RespClient client = RespClient.connect(address)) {
                serverName = label != null ? label : serverName(InfoFields.ask(client, "server"));
                if (flush) {
                    client.callForText("FLUSHALL");
                }
            }
            result = Fairness.run(address, keys, interval);
        } catch (IOException e) {
            err.println("kvbench fairness: " + e.getMessage());
            return 1;
        }
        out.println(result.summary(serverName));
        out.flush();
        if (json != null) {
            try {
                result.json(serverName).appendTo(json);
            } catch (IOException e) {
                err.println("kvbench fairness: cannot write " + json + ": " + e);
                return 1;
            }
        }
        return 0;
    }

    /** What INFO's server section says the server is: kvd or redis, and its version. */
    static String serverName(Map<String, String> info) {
        if (info.containsKey("kvd_version")) {
            return "kvd " + info.get("kvd_version");
        }
        if (info.containsKey("redis_version")) {
            return "redis " + info.get("redis_version");
        }
        return "unknown";
    }

    private void checkArguments() {
        if (keys < 1 || keys > RequestTemplate.MAX_KEY_RANGE) {
            throw new ParameterException(spec.commandLine(), "-n must be in 1.." + RequestTemplate.MAX_KEY_RANGE
                    + " (keys have " + RequestTemplate.KEY_DIGITS + " digits), not " + keys);
        }
        if (interval.isZero()) {
            throw new ParameterException(spec.commandLine(), "--interval must be longer than 0");
        }
    }
}
