package io.kvd.bench;

import java.util.Arrays;
import java.util.Locale;

/** What the connections send; {@code -w} names it in lower case. */
enum Workload {
    SET, GET,
    /** SET and GET in equal parts, each request chosen at random. */
    MIX,
    INCR, PING;

    /** The requests this workload draws from, uniformly; values are {@code valueSize} bytes of 'x', as redis-benchmark's. */
    RequestTemplate[] templates(int valueSize) {
        return switch (this) {
            case SET -> new RequestTemplate[] {set(valueSize)};
            case GET -> new RequestTemplate[] {get()};
            case MIX -> new RequestTemplate[] {set(valueSize), get()};
            // redis-benchmark's INCR test counts under "counter:", so INCR never meets a SET's non-numeric value.
            case INCR -> new RequestTemplate[] {RequestTemplate.keyed("INCR", "counter:")};
            case PING -> new RequestTemplate[] {RequestTemplate.keyless("PING")};
        };
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static RequestTemplate set(int valueSize) {
        byte[] value = new byte[valueSize];
        Arrays.fill(value, (byte) 'x');
        return RequestTemplate.keyed("SET", "key:", value);
    }

    private static RequestTemplate get() {
        return RequestTemplate.keyed("GET", "key:");
    }
}
