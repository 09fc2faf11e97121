package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.netty.handler.codec.CorruptedFrameException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Connection churn: holds a number of mostly idle connections that follows a target drawn anew
 * every 5 to 60 s (a quarter of the time 1, a quarter of the time the most, else anything between),
 * moving towards it by at most 50 connections a tick of 100 ms, and replaces up to one in fifty of
 * them every tick besides. Closes are half FIN, half reset. Each new connection sends a PING, as
 * do three of the held ones every tick.
 */
final class SoakChurn extends SoakRole {
    private static final long TICK_MS = 100;
    private static final int MOST_OPENED_OR_CLOSED_PER_TICK = 50;
    private static final int REPLACED_PER_TICK_ONE_IN = 50;
    private static final int PINGED_PER_TICK = 3;
    private static final long SHORTEST_PHASE_MS = 5_000;
    private static final long LONGEST_PHASE_MS = 60_000;

    private final SplittableRandom random;
    private final List<RespClient> held = new ArrayList<>();
    private int target;
    private long phaseEndNanos = System.nanoTime();

    SoakChurn(Soak soak, SplittableRandom random) {
        super(soak, "churn");
        this.random = random;
    }

    @Override
    void step() throws IOException, InterruptedException {
        TimeUnit.MILLISECONDS.sleep(TICK_MS);
        long now = System.nanoTime();
        if (now - phaseEndNanos >= 0) {
            target = randomTarget();
            long phaseMs = random.nextLong(SHORTEST_PHASE_MS, LONGEST_PHASE_MS + 1);
            phaseEndNanos = now + TimeUnit.MILLISECONDS.toNanos(phaseMs);
        }
        int replaced = random.nextInt(held.size() / REPLACED_PER_TICK_ONE_IN + 1);
        int closes = Math.min(held.size() - target, MOST_OPENED_OR_CLOSED_PER_TICK);
        for (int i = Math.max(0, closes) + replaced; i > 0 && !held.isEmpty(); i--) {
            soak.close(held.remove(random.nextInt(held.size())), random.nextBoolean());
        }
        int opens = Math.min(target - held.size(), MOST_OPENED_OR_CLOSED_PER_TICK);
        for (int i = Math.max(0, opens) + replaced; i > 0; i--) {
            RespClient client = soak.connect();
            held.add(client);
            ping(client);
        }
        for (int i = 0; i < PINGED_PER_TICK && !held.isEmpty(); i++) {
            ping(held.get(random.nextInt(held.size())));
        }
    }

    private int randomTarget() {
        int most = soak.settings().maxConnections();
        return switch (random.nextInt(4)) {
            case 0 -> 1;
            case 1 -> most;
            default -> random.nextInt(1, most + 1);
        };
    }

    /** A PING on a held connection; one that fails is counted and dropped, and the churn goes on. */
    private void ping(RespClient client) {
        try {
            RespReply reply = client.call("PING");
            soak.tally().replies(1);
            if (!(reply instanceof RespReply.SimpleString pong && pong.value().equals("PONG"))) {
                soak.tally().error(name() + ": PING answered " + Soak.brief(reply));
            }
        } catch (IOException | CorruptedFrameException e) {
            soak.tally().error(name() + ": " + e);
            held.remove(client);
            soak.close(client, true);
        }
    }

    @Override
    void closeAll() {
        held.forEach(client -> soak.close(client, false));
        held.clear();
    }
}
