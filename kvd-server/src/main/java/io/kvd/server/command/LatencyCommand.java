package io.kvd.server.command;

import io.kvd.server.config.Config;
import io.kvd.server.latency.LatencyMonitor;

import java.util.List;

/**
 * LATENCY LATEST | HISTORY | RESET | GRAPH | DOCTOR | HELP over the server's {@link LatencyMonitor},
 * as Redis 7.0's latency.c. GRAPH and DOCTOR answer the text as a bulk string, as Redis's
 * verbatim reply reads to a RESP2 client. Scripts may run only HELP, as in Redis.
 */
final class LatencyCommand {
    static final Subcommands SUBCOMMANDS = new Subcommands("latency")
            .add("doctor", 2, Subcommands.NOSCRIPT, LatencyCommand::doctor,
                    "DOCTOR",
                    "    Return a human readable latency analysis report.")
            .add("graph", 3, Subcommands.NOSCRIPT, LatencyCommand::graph,
                    "GRAPH <event>",
                    "    Return an ASCII latency graph for the <event> class.")
            .add("history", 3, Subcommands.NOSCRIPT, LatencyCommand::history,
                    "HISTORY <event>",
                    "    Return time-latency samples for the <event> class.")
            .add("latest", 2, Subcommands.NOSCRIPT, LatencyCommand::latest,
                    "LATEST",
                    "    Return the latest latency samples for all events.")
            .add("reset", -2, Subcommands.NOSCRIPT, LatencyCommand::reset,
                    "RESET [<event> ...]",
                    "    Reset latency data of one or more <event> classes.",
                    "    (default: reset all data for all event classes)")
            .withHelp();

    private LatencyCommand() {
    }

    static void latency(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    private static LatencyMonitor monitor(Client client) {
        return client.server().latencyMonitor();
    }

    /** LATENCY LATEST: per event, its name, newest sample's time and latency, and all-time maximum. */
    private static void latest(Client client, byte[][] argv) {
        List<LatencyMonitor.Latest> latest = monitor(client).latest();
        Reply reply = client.reply();
        reply.arrayHeader(latest.size());
        for (LatencyMonitor.Latest event : latest) {
            reply.arrayHeader(4);
            reply.bulk(event.event());
            reply.integer(event.sample().timeSeconds());
            reply.integer(event.sample().latencyMs());
            reply.integer(event.maxMs());
        }
    }

    /** LATENCY HISTORY event: its samples, oldest first, as [time, latency] pairs. */
    private static void history(Client client, byte[][] argv) {
        List<LatencyMonitor.Sample> samples = monitor(client).history(Args.utf8(argv[2]));
        Reply reply = client.reply();
        reply.arrayHeader(samples.size());
        for (LatencyMonitor.Sample sample : samples) {
            reply.arrayHeader(2);
            reply.integer(sample.timeSeconds());
            reply.integer(sample.latencyMs());
        }
    }

    /** LATENCY RESET [event ...]: how many events were forgotten (names ignore case here, as Redis's strcasecmp). */
    private static void reset(Client client, byte[][] argv) {
        LatencyMonitor monitor = monitor(client);
        int resets = 0;
        if (argv.length == 2) {
            resets = monitor.reset(null);
        }
        for (int i = 2; i < argv.length; i++) {
            resets += monitor.reset(Args.utf8(argv[i]));
        }
        client.reply().integer(resets);
    }

    private static void graph(Client client, byte[][] argv) {
        String event = Args.utf8(argv[2]);
        String graph = monitor(client).graph(event);
        if (graph == null) {
            throw new CommandError("ERR No samples available for event '" + event + "'");
        }
        client.reply().bulk(graph);
    }

    private static void doctor(Client client, byte[][] argv) {
        Config config = client.server().config();
        client.reply().bulk(monitor(client).doctor(config.slowlogLogSlowerThan(), config.hz(),
                config.appendfsync().equals("always")));
    }
}
