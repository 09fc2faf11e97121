package io.kvd.bench;

import io.kvd.codec.RespReply;

import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * BGREWRITEAOF at the start and then every 2 to 6 s. A refusal because a rewrite is already in
 * progress (one may take longer than the pause) is counted apart, not as an error.
 */
final class SoakRewrites extends SoakRole {
    private static final long SHORTEST_PAUSE_MS = 2_000;
    private static final long LONGEST_PAUSE_MS = 6_000;

    private final SplittableRandom random;

    SoakRewrites(Soak soak, SplittableRandom random) {
        super(soak, "rewrites");
        this.random = random;
    }

    @Override
    void step() throws IOException, InterruptedException {
        RespReply reply = connection().call("BGREWRITEAOF");
        soak.tally().replies(1);
        if (reply instanceof RespReply.SimpleString) {
            soak.tally().rewriteStarted();
        } else if (reply instanceof RespReply.Error error && error.message().contains("already in progress")) {
            soak.tally().rewriteRefused();
        } else {
            soak.tally().error(name() + ": BGREWRITEAOF answered " + Soak.brief(reply));
        }
        TimeUnit.MILLISECONDS.sleep(random.nextLong(SHORTEST_PAUSE_MS, LONGEST_PAUSE_MS + 1));
    }
}
