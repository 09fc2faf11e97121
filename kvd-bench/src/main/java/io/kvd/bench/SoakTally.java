package io.kvd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a soak did and what went wrong, counted by all its threads at once. Of the errors and
 * mismatches, the first few are kept word for word for the summary.
 */
final class SoakTally {
    private static final int KEPT_MESSAGES = 5;

    private final LongAdder replies = new LongAdder();
    private final LongAdder opened = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder killedMidReply = new LongAdder();
    private final LongAdder killedMidRequest = new LongAdder();
    private final AtomicLong open = new AtomicLong();
    private final AtomicLong mostOpen = new AtomicLong();
    private final LongAdder rewritesStarted = new LongAdder();
    private final LongAdder rewritesRefused = new LongAdder();
    private final LongAdder verified = new LongAdder();
    private final Messages errors = new Messages();
    private final Messages mismatches = new Messages();

    void replies(int count) {
        replies.add(count);
    }

    void connectionOpened() {
        opened.increment();
        mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
    }

    /** A connection closed in the ordinary course: churn, a client reconnecting, the end. */
    void connectionClosed() {
        closed.increment();
        open.decrementAndGet();
    }

    /** A connection closed before its GET or MGET was answered. */
    void connectionKilledMidReply() {
        killedMidReply.increment();
        open.decrementAndGet();
    }

    /** A connection closed with part of a request sent. */
    void connectionKilledMidRequest() {
        killedMidRequest.increment();
        open.decrementAndGet();
    }

    void rewriteStarted() {
        rewritesStarted.increment();
    }

    /** BGREWRITEAOF answered that a rewrite is already in progress. */
    void rewriteRefused() {
        rewritesRefused.increment();
    }

    /** Values (or counts) read back equal to what was written. */
    void verified(int values) {
        verified.add(values);
    }

    /** An error reply, an unexpected reply, or a connection that failed: counted, not fatal. */
    void error(String message) {
        errors.add(message);
    }

    /** A value read back that is not what was written: fails the soak. */
    void mismatch(String message) {
        mismatches.add(message);
    }

    long replies() {
        return replies.sum();
    }

    long opened() {
        return opened.sum();
    }

    long closed() {
        return closed.sum();
    }

    long killedMidReply() {
        return killedMidReply.sum();
    }

    long killedMidRequest() {
        return killedMidRequest.sum();
    }

    long killed() {
        return killedMidReply() + killedMidRequest();
    }

    long open() {
        return open.get();
    }

    long mostOpen() {
        return mostOpen.get();
    }

    long rewritesStarted() {
        return rewritesStarted.sum();
    }

    long rewritesRefused() {
        return rewritesRefused.sum();
    }

    long verified() {
        return verified.sum();
    }

    long errors() {
        return errors.count();
    }

    List<String> firstErrors() {
        return errors.first();
    }

    long mismatches() {
        return mismatches.count();
    }

    List<String> firstMismatches() {
        return mismatches.first();
    }

    /** A count of messages and the first {@value #KEPT_MESSAGES} of them. */
    private static final class Messages {
        private final List<String> first = new ArrayList<>();
        private long count;

        synchronized void add(String message) {
            count++;
            if (first.size() < KEPT_MESSAGES) {
                first.add(message);
            }
        }

        synchronized long count() {
            return count;
        }

        synchronized List<String> first() {
            return List.copyOf(first);
        }
    }
}
