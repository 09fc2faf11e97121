package io.kvd.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransportTest {
    @Test
    void autoTakesTheFirstAvailableInPreferenceOrder() {
        Transport chosen = Transport.select("auto");
        assertThat(chosen.unavailabilityCause()).isNull();
        for (Transport better : Transport.values()) {
            if (better == chosen) {
                break;
            }
            assertThat(better.unavailabilityCause()).as(better + " is preferred but unavailable").isNotNull();
        }
    }

    @Test
    void nioIsAlwaysAvailable() {
        assertThat(Transport.select("nio")).isEqualTo(Transport.NIO);
    }

    @Test
    void unavailableTransportAskedForByNameStopsTheStartWithItsCause() {
        Transport missing = null;
        for (Transport t : Transport.values()) {
            if (t.unavailabilityCause() != null) {
                missing = t;
            }
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(missing != null, "every transport is available here");
        String name = missing.configName();
        assertThatThrownBy(() -> Transport.select(name))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("transport " + name + " is not available here: ");
    }
}
