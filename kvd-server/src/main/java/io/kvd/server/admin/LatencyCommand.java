package io.kvd.server.admin;

import io.kvd.server.client.Client;
import io.kvd.server.client.Subcommands;
import io.kvd.server.config.Config;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Reply;
import io.kvd.server.stats.CommandStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LATENCY LATEST | HISTORY | RESET | GRAPH | DOCTOR | HELP over the server's {@link LatencyMonitor},
 * as Redis 7.0's latency.c, and HISTOGRAM over the commands' latency histograms ({@link CommandStats}). GRAPH and DOCTOR answer Redis's verbatim text (a bulk
 * string in RESP2). Scripts may run only HELP, as in Redis.
 */
public final class LatencyCommand {
    public static final Subcommands SUBCOMMANDS = new Subcommands("latency")
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
            .add("histogram", -2, Subcommands.NOSCRIPT, LatencyCommand::histogram,
                    "HISTOGRAM [COMMAND ...]",
                    "    Return a cumulative distribution of latencies in the format of a histogram for the specified command names.",
                    "    If no commands are specified then all histograms are replied.")
            .withHelp();

    private LatencyCommand() {
    }

    public static void latency(Client client, byte[][] argv) {
        SUBCOMMANDS.dispatch(client, argv);
    }

    private static LatencyMonitor monitor(Client client) {
        return client.server().latencyMonitor();
    }

    /**
     * LATENCY HISTOGRAM [command ...] (Redis's latencyAllCommandsFillCDF and
     * latencySpecificCommandsFillCDF): for each command with a histogram, every one or those named
     * (a container naming its subcommands), its call count and the cumulative count at each power
     * of two from 1024 ns, in microseconds, where the count grew. Unknown names are skipped.
     */
    private static void histogram(Client client, byte[][] argv) {
        Map<String, CommandStats.Entry> entries = client.server().commandStats().byName();
        List<Map.Entry<String, CommandStats.Entry>> chosen = new ArrayList<>();
        if (argv.length == 2) {
            entries.entrySet().stream().filter(e -> e.getValue().latency() != null).forEach(chosen::add);
        }
        for (int i = 2; i < argv.length; i++) {
            String name = Args.utf8(argv[i]).toLowerCase(Locale.ROOT);
            for (Map.Entry<String, CommandStats.Entry> e : entries.entrySet()) {
                boolean named = e.getKey().equals(name) || e.getKey().startsWith(name + "|");
                if (named && e.getValue().latency() != null) {
                    chosen.add(e);
                }
            }
        }
        Reply reply = client.reply();
        reply.mapHeader(chosen.size());
        for (Map.Entry<String, CommandStats.Entry> e : chosen) {
            Histogram latency = e.getValue().latency();
            reply.bulk(e.getKey());
            reply.mapHeader(2);
            reply.bulk("calls");
            reply.integer(latency.getTotalCount());
            reply.bulk("histogram_usec");
            List<long[]> buckets = new ArrayList<>();
            long previous = 0;
            for (HistogramIterationValue step : latency.logarithmicBucketValues(1024, 2)) {
                long cumulative = step.getTotalCountToThisValue();
                if (cumulative > previous) {
                    buckets.add(new long[] {step.getValueIteratedTo() / 1000, cumulative});
                }
                previous = cumulative;
            }
            reply.mapHeader(buckets.size());
            for (long[] bucket : buckets) {
                reply.integer(bucket[0]);
                reply.integer(bucket[1]);
            }
        }
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
        client.reply().verbatim(graph);
    }

    private static void doctor(Client client, byte[][] argv) {
        Config config = client.server().config();
        client.reply().verbatim(monitor(client).doctor(config.slowlogLogSlowerThan(), config.hz(),
                config.appendfsync().equals("always")));
    }
}
