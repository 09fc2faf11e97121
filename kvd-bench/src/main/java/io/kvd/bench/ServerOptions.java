package io.kvd.bench;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The options every kvbench command shares (a picocli mixin): the server's address, and --help. */
final class ServerOptions {
    // -h is the host, as in redis-benchmark, so help is only --help.
    @Option(names = "--help", usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = {"-h", "--host"}, defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = {"-p", "--port"}, defaultValue = "6379", description = "Server port (default: ${DEFAULT-VALUE}).")
    private int port;

    /** The address given. @throws ParameterException if the port is not a TCP port */
    ServerAddress address(CommandSpec spec) {
        if (port < 1) {
            throw new ParameterException(spec.commandLine(), "-p must be at least 1, not " + port);
        }
        if (port > 65_535) {
            throw new ParameterException(spec.commandLine(), "-p must be a TCP port, at most 65535");
        }
        return new ServerAddress(host, port);
    }
}
