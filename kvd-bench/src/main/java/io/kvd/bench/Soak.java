package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.netty.handler.codec.CorruptedFrameException;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code kvbench soak}: for a duration, all at once against one server, mixed load from pipelined
 * and unpipelined clients ({@link SoakLoadClient}), connections opened and closed by the hundred
 * ({@link SoakChurn}), clients gone mid-reply and mid-request ({@link SoakKiller}), AOF rewrites
 * ({@link SoakRewrites}), and values read back against what was written ({@link SoakChecker}), each
 * on a thread of its own. This thread meanwhile asks a fresh connection for PING every second and
 * prints the progress. The soak passes if the server answered throughout and after, and every value
 * read back was the one written.
 */
final class Soak {
    private static final long PROBE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Probes failing this long in a row end the soak early: the server is down. */
    private static final long UNREACHABLE_AFTER_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The roles' last requests may still be waiting for replies at the end; a read gives up after 60 s. */
    private static final long FINISH_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(70);
    private static final int BRIEF_LENGTH = 80;

    private final SoakSettings settings;
    private final PrintWriter out;
    private final SoakTally tally = new SoakTally();
    private final SoakValues values;
    private final RequestPacer pacer;
    private volatile boolean running = true;

    Soak(SoakSettings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
        this.values = new SoakValues(settings.seed());
        this.pacer = new RequestPacer(settings.rate());
    }

    SoakSettings settings() {
        return settings;
    }

    SoakTally tally() {
        return tally;
    }

    SoakValues values() {
        return values;
    }

    /** Shared by the load clients and the checker: together they send at most {@code --rate} requests/s. */
    RequestPacer pacer() {
        return pacer;
    }

    boolean running() {
        return running;
    }

    /** A new connection to the server, counted as opened. */
    RespClient connect() throws IOException {
        RespClient client = RespClient.connect(settings.server());
        tally.connectionOpened();
        return client;
    }

    /** Closes a connection the ordinary way (a FIN) or with a reset; counted as closed. */
    void close(RespClient client, boolean reset) {
        closeQuietly(client, reset);
        tally.connectionClosed();
    }

    static void closeQuietly(RespClient client, boolean reset) {
        try {
            if (reset) {
                client.reset();
            } else {
                client.close();
            }
        } catch (IOException e) {
            // The connection is gone either way, which is all a close is for here.
        }
    }

    /** The reply as its toString shows it, cut short: a 1 MB value in a message helps nobody. */
    static String brief(RespReply reply) {
        String text = String.valueOf(reply);
        return text.length() <= BRIEF_LENGTH ? text : text.substring(0, BRIEF_LENGTH) + "...";
    }

    /**
     * Runs the soak, printing a progress line every {@code progressInterval} and the summary at the
     * end. @return true if the server answered throughout and after, and no value read back differed
     * @throws IOException when the server cannot be reached at the start
     */
    boolean run() throws IOException, InterruptedException {
        String transport = transport();
        out.printf(Locale.ROOT, "soak %s (multiplexing_api %s), seed %d: %.1f s, %d requests/s, %d clients,"
                        + " up to %d connections, %d keys%n", settings.server(), transport, settings.seed(),
                settings.duration().toMillis() / 1e3, settings.rate(), settings.clients(), settings.maxConnections(),
                settings.keyRange());
        out.flush();
        long start = System.nanoTime();
        List<Thread> threads = start(roles());
        String unreachable = watch(start);
        running = false;
        threads.forEach(Thread::interrupt);
        finish(threads);
        double seconds = (System.nanoTime() - start) / 1e9;
        String downAfter = probe();
        printSummary(seconds, unreachable, downAfter);
        return unreachable == null && downAfter == null && tally.mismatches() == 0;
    }

    /**
     * INFO's multiplexing_api, kvd's transport; "unknown" from a server that does not say.
     * @throws IOException when the server cannot be reached
     */
    private String transport() throws IOException {
        try (RespClient client = RespClient.connect(settings.server())) {
            RespReply info = client.call("INFO", "server");
            return info instanceof RespReply.BulkString text && text.value() != null
                    ? InfoFields.parse(text.utf8()).getOrDefault("multiplexing_api", "unknown") : "unknown";
        } catch (IOException | CorruptedFrameException e) {
            throw new IOException("cannot connect to " + settings.server() + ": " + e.getMessage(), e);
        }
    }

    private List<SoakRole> roles() {
        // One generator per role, split in a fixed order: each role's choices follow from the seed.
        SplittableRandom seeds = new SplittableRandom(settings.seed());
        List<SoakRole> roles = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            roles.add(new SoakLoadClient(this, "client " + i, seeds.split()));
        }
        roles.add(new SoakChurn(this, seeds.split()));
        roles.add(new SoakKiller(this, seeds.split()));
        roles.add(new SoakRewrites(this, seeds.split()));
        roles.add(new SoakChecker(this, seeds.split()));
        return roles;
    }

    private static List<Thread> start(List<SoakRole> roles) {
        List<Thread> threads = new ArrayList<>();
        for (SoakRole role : roles) {
            Thread thread = new Thread(role, "soak " + role.name());
            // A role stuck on a server that stopped answering must not keep the JVM alive.
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        return threads;
    }

    /**
     * Probes the server every second and prints the progress until the duration has passed.
     * @return null, or why the server is taken to be down when probes failed for 5 s in a row
     */
    private String watch(long start) throws InterruptedException {
        long end = start + settings.duration().toNanos();
        long progressInterval = settings.progressInterval().toNanos();
        long nextProgress = start + progressInterval;
        long lastProgress = start;
        long lastReplies = 0;
        long failingSince = 0;
        boolean failing = false;
        while (true) {
            long now = System.nanoTime();
            if (now - end >= 0) {
                return null;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(end - now, PROBE_INTERVAL_NANOS));
            now = System.nanoTime();
            if (now - nextProgress >= 0) {
                long replies = tally.replies();
                printProgress(now - start, (replies - lastReplies) / ((now - lastProgress) / 1e9));
                lastReplies = replies;
                lastProgress = now;
                nextProgress += progressInterval;
            }
            String failure = probe();
            if (failure == null) {
                failing = false;
            } else if (!failing) {
                failing = true;
                failingSince = now;
            } else if (now - failingSince >= UNREACHABLE_AFTER_NANOS) {
                return "no answer for " + TimeUnit.NANOSECONDS.toSeconds(now - failingSince) + " s: " + failure;
            }
        }
    }

    /** Null if a new connection's PING is answered (whatever the answer), else why not. */
    private String probe() {
        try (RespClient client = RespClient.connect(settings.server())) {
            client.call("PING");
            return null;
        } catch (IOException | CorruptedFrameException e) {
            return e.toString();
        }
    }

    private void finish(List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + FINISH_TIMEOUT_NANOS;
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                tally.error(thread.getName() + ": still waiting for a reply "
                        + TimeUnit.NANOSECONDS.toSeconds(FINISH_TIMEOUT_NANOS) + " s after the end");
            }
        }
    }

    private void printProgress(long elapsedNanos, double repliesPerSecond) {
        out.printf(Locale.ROOT, "soak %d s: %d ops (%.0f/s), %d open, %d opened, %d killed, %d rewrites,"
                        + " %d verified, %d mismatches, %d errors%n", TimeUnit.NANOSECONDS.toSeconds(elapsedNanos),
                tally.replies(), repliesPerSecond, tally.open(), tally.opened(), tally.killed(),
                tally.rewritesStarted(), tally.verified(), tally.mismatches(), tally.errors());
        out.flush();
    }

    private void printSummary(double seconds, String unreachable, String downAfter) {
        out.printf(Locale.ROOT, "soak ended after %.1f s%n", seconds);
        out.printf(Locale.ROOT, "  ops: %d (%.0f/s)%n", tally.replies(), tally.replies() / seconds);
        out.printf(Locale.ROOT, "  connections: %d opened, %d closed, %d killed (%d mid-reply, %d mid-request),"
                        + " at most %d open at once%n", tally.opened(), tally.closed(), tally.killed(),
                tally.killedMidReply(), tally.killedMidRequest(), tally.mostOpen());
        out.printf(Locale.ROOT, "  rewrites: %d started, %d refused as already in progress%n",
                tally.rewritesStarted(), tally.rewritesRefused());
        out.printf(Locale.ROOT, "  verified: %d values read back as written, %d mismatches%n",
                tally.verified(), tally.mismatches());
        tally.firstMismatches().forEach(m -> out.println("    mismatch: " + m));
        out.printf(Locale.ROOT, "  errors: %d%n", tally.errors());
        tally.firstErrors().forEach(e -> out.println("    error: " + e));
        List<String> failures = new ArrayList<>();
        if (unreachable != null) {
            out.println("  server: unreachable during the run, " + unreachable);
            failures.add("the server became unreachable");
        } else if (downAfter != null) {
            out.println("  server: no answer to PING after the run: " + downAfter);
            failures.add("the server did not answer after the run");
        } else {
            out.println("  server: answered PING after the run");
        }
        if (tally.mismatches() > 0) {
            failures.add(tally.mismatches() + " values read back differed from what was written");
        }
        out.println(failures.isEmpty() ? "soak passed" : "soak FAILED: " + String.join("; ", failures));
        out.flush();
    }
}
