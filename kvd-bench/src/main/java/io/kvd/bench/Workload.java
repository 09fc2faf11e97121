package io.kvd.bench;

import java.util.Arrays;
import java.util.Locale;

/** What the connections send; {@code -w} names it in lower case. */
enum Workload {
    SET, GET,
    /** SET and GET in equal parts, each request chosen at random. */
    MIX,
    INCR, PING;

    /**
     * The requests this workload draws from, uniformly; values are {@code valueSize} bytes of 'x', as
     * redis-benchmark's, or with {@code stamped} end with their key's digits (the verify mode).
     */
    RequestTemplate[] templates(int valueSize, boolean stamped) {
        return switch (this) {
            case SET -> new RequestTemplate[] {set(valueSize, stamped)};
            case GET -> new RequestTemplate[] {get()};
            case MIX -> new RequestTemplate[] {set(valueSize, stamped), get()};
            // redis-benchmark's INCR test counts under "counter:", so INCR never meets a SET's non-numeric value.
            case INCR -> new RequestTemplate[] {RequestTemplate.keyed("INCR", "counter:")};
            case PING -> new RequestTemplate[] {RequestTemplate.keyless("PING")};
        };
    }

    /** Whether {@link #templates}' entry {@code index} is a GET, whose reply the verify mode checks. */
    boolean isGet(int index) {
        return this == GET || this == MIX && index == 1;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static RequestTemplate set(int valueSize, boolean stamped) {
        if (stamped) {
            return RequestTemplate.keyedWithStampedValue("SET", "key:", valueSize);
        }
        byte[] value = new byte[valueSize];
        Arrays.fill(value, (byte) 'x');
        return RequestTemplate.keyed("SET", "key:", value);
    }

    private static RequestTemplate get() {
        return RequestTemplate.keyed("GET", "key:");
    }
}
