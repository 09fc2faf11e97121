package io.kvd.server.command;

import org.junit.jupiter.api.Test;

import static io.kvd.server.command.CommandFixture.START_MS;
import static org.assertj.core.api.Assertions.assertThat;

/** Replies checked against redis-server 7.0.15. */
class ExpireCommandsTest {
    private static final String ONE = ":1\r\n";
    private static final String ZERO = ":0\r\n";

    private final CommandFixture kvd = new CommandFixture();

    private void setK() {
        assertThat(kvd.call("SET", "k", "v")).isEqualTo("+OK\r\n");
    }

    private static String integer(long value) {
        return ":" + value + "\r\n";
    }

    @Test
    void expireSetsATtlInSeconds() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":100\r\n");
        assertThat(kvd.call("PTTL", "k")).isEqualTo(":100000\r\n");
    }

    @Test
    void pexpireSetsATtlInMilliseconds() {
        setK();
        assertThat(kvd.call("PEXPIRE", "k", "1234")).isEqualTo(ONE);
        assertThat(kvd.call("PTTL", "k")).isEqualTo(":1234\r\n");
    }

    @Test
    void expireatSetsAnAbsoluteDeadlineInSeconds() {
        setK();
        long at = START_MS / 1000 + 60;
        assertThat(kvd.call("EXPIREAT", "k", Long.toString(at))).isEqualTo(ONE);
        assertThat(kvd.call("PEXPIRETIME", "k")).isEqualTo(integer(at * 1000));
    }

    @Test
    void pexpireatSetsAnAbsoluteDeadlineInMilliseconds() {
        setK();
        assertThat(kvd.call("PEXPIREAT", "k", Long.toString(START_MS + 1234))).isEqualTo(ONE);
        assertThat(kvd.call("PTTL", "k")).isEqualTo(":1234\r\n");
    }

    @Test
    void expireOfAMissingKeyIsZero() {
        assertThat(kvd.call("EXPIRE", "missing", "10")).isEqualTo(ZERO);
        assertThat(kvd.call("PEXPIREAT", "missing", Long.toString(START_MS - 1))).isEqualTo(ZERO);
    }

    @Test
    void deadlineNotInTheFutureDeletesTheKeyAndReturnsOne() {
        for (String[] command : new String[][]{
                {"EXPIRE", "k", "0"}, {"PEXPIRE", "k", "-1"}, {"EXPIREAT", "k", "1"},
                {"PEXPIREAT", "k", Long.toString(START_MS)}}) {
            setK();
            assertThat(kvd.call(command)).isEqualTo(ONE);
            assertThat(kvd.call("EXISTS", "k")).isEqualTo(ZERO);
        }
    }

    @Test
    void keyLivesThroughItsDeadlineMillisecond() {
        setK();
        assertThat(kvd.call("PEXPIRE", "k", "10")).isEqualTo(ONE);
        kvd.setTime(START_MS + 10);
        assertThat(kvd.call("PTTL", "k")).isEqualTo(":0\r\n");
        kvd.setTime(START_MS + 11);
        assertThat(kvd.call("PTTL", "k")).isEqualTo(":-2\r\n");
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(ZERO);
    }

    @Test
    void ttlRoundsToTheNearestSecond() {
        setK();
        assertThat(kvd.call("PEXPIRE", "k", "1499")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(ONE);
        assertThat(kvd.call("PEXPIRE", "k", "1500")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":2\r\n");
    }

    @Test
    void ttlFamilyIsMinusTwoForAMissingKeyAndMinusOneWithoutDeadline() {
        setK();
        for (String command : new String[]{"TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME"}) {
            assertThat(kvd.call(command, "missing")).isEqualTo(":-2\r\n");
            assertThat(kvd.call(command, "k")).isEqualTo(":-1\r\n");
        }
    }

    @Test
    void expiretimeRoundsTheDeadlineToTheNearestSecond() {
        setK();
        assertThat(kvd.call("PEXPIREAT", "k", "1800000000499")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRETIME", "k")).isEqualTo(":1800000000\r\n");
        assertThat(kvd.call("PEXPIREAT", "k", "1800000000500")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRETIME", "k")).isEqualTo(":1800000001\r\n");
        assertThat(kvd.call("PEXPIRETIME", "k")).isEqualTo(":1800000000500\r\n");
    }

    @Test
    void farthestDeadlineRoundsAsRedisDoesWithoutOverflow() {
        setK();
        assertThat(kvd.call("PEXPIREAT", "k", "9223372036854775807")).isEqualTo(ONE);
        assertThat(kvd.call("PEXPIRETIME", "k")).isEqualTo(":9223372036854775807\r\n");
        assertThat(kvd.call("EXPIRETIME", "k")).isEqualTo(":9223372036854776\r\n");
        long pttl = Long.MAX_VALUE - START_MS;
        assertThat(kvd.call("PTTL", "k")).isEqualTo(integer(pttl));
        assertThat(kvd.call("TTL", "k")).isEqualTo(integer((pttl + 500) / 1000));
    }

    @Test
    void expireTimesThatOverflowAreInvalid() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "9223372036854775807"))
                .isEqualTo("-ERR invalid expire time in 'expire' command\r\n");
        assertThat(kvd.call("EXPIRE", "k", "-9223372036854775808"))
                .isEqualTo("-ERR invalid expire time in 'expire' command\r\n");
        assertThat(kvd.call("PEXPIRE", "k", "9223372036854775807"))
                .isEqualTo("-ERR invalid expire time in 'pexpire' command\r\n");
        assertThat(kvd.call("EXPIREAT", "k", "9223372036854775807"))
                .isEqualTo("-ERR invalid expire time in 'expireat' command\r\n");
        assertThat(kvd.call("TTL", "k")).isEqualTo(":-1\r\n");
    }

    @Test
    void overflowIsCheckedEvenForAMissingKey() {
        assertThat(kvd.call("PEXPIRE", "missing", "9223372036854775807"))
                .isEqualTo("-ERR invalid expire time in 'pexpire' command\r\n");
    }

    @Test
    void expireTimeMustBeAnInteger() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "abc")).isEqualTo("-ERR value is not an integer or out of range\r\n");
        assertThat(kvd.call("EXPIRE", "k", "1.5")).isEqualTo("-ERR value is not an integer or out of range\r\n");
    }

    @Test
    void nxSetsOnlyAKeyWithoutDeadline() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100", "NX")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRE", "k", "200", "nx")).isEqualTo(ZERO);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":100\r\n");
    }

    @Test
    void xxSetsOnlyAKeyWithADeadline() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100", "XX")).isEqualTo(ZERO);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":-1\r\n");
        assertThat(kvd.call("EXPIRE", "k", "100")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRE", "k", "200", "XX")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":200\r\n");
    }

    @Test
    void gtOnlyExtendsAndNeverAppliesToAKeyWithoutDeadline() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100", "GT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "100")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRE", "k", "100", "GT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "50", "GT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "200", "GT")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":200\r\n");
    }

    @Test
    void ltOnlyShortensAndAlwaysAppliesToAKeyWithoutDeadline() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100", "LT")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRE", "k", "100", "LT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "200", "LT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "50", "LT")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":50\r\n");
    }

    @Test
    void pastDeadlinePassingTheConditionDeletes() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "-1", "GT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "-1", "LT")).isEqualTo(ONE);
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(ZERO);
    }

    @Test
    void xxCombinesWithGtOrLt() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "10", "XX", "LT")).isEqualTo(ZERO);
        assertThat(kvd.call("EXPIRE", "k", "100")).isEqualTo(ONE);
        assertThat(kvd.call("EXPIRE", "k", "10", "XX", "LT")).isEqualTo(ONE);
    }

    @Test
    void nxWithAnyOtherConditionIsIncompatible() {
        String error = "-ERR NX and XX, GT or LT options at the same time are not compatible\r\n";
        assertThat(kvd.call("EXPIRE", "k", "10", "NX", "XX")).isEqualTo(error);
        assertThat(kvd.call("EXPIRE", "k", "10", "GT", "NX")).isEqualTo(error);
        assertThat(kvd.call("PEXPIRE", "k", "10", "NX", "LT")).isEqualTo(error);
    }

    @Test
    void gtWithLtIsIncompatible() {
        assertThat(kvd.call("EXPIRE", "k", "10", "GT", "LT"))
                .isEqualTo("-ERR GT and LT options at the same time are not compatible\r\n");
    }

    @Test
    void unknownOptionIsUnsupported() {
        assertThat(kvd.call("EXPIRE", "k", "10", "foo")).isEqualTo("-ERR Unsupported option foo\r\n");
    }

    @Test
    void optionsAreCheckedBeforeTheTime() {
        assertThat(kvd.call("EXPIRE", "k", "abc", "foo")).isEqualTo("-ERR Unsupported option foo\r\n");
        assertThat(kvd.call("EXPIRE", "k", "abc", "NX", "XX"))
                .isEqualTo("-ERR NX and XX, GT or LT options at the same time are not compatible\r\n");
    }

    @Test
    void persistRemovesTheDeadline() {
        setK();
        assertThat(kvd.call("EXPIRE", "k", "100")).isEqualTo(ONE);
        assertThat(kvd.call("PERSIST", "k")).isEqualTo(ONE);
        assertThat(kvd.call("TTL", "k")).isEqualTo(":-1\r\n");
    }

    @Test
    void persistOfAKeyWithoutDeadlineOrAMissingKeyIsZero() {
        setK();
        assertThat(kvd.call("PERSIST", "k")).isEqualTo(ZERO);
        assertThat(kvd.call("PERSIST", "missing")).isEqualTo(ZERO);
    }

    @Test
    void persistOfAnExpiredKeyIsZero() {
        setK();
        assertThat(kvd.call("PEXPIRE", "k", "1")).isEqualTo(ONE);
        kvd.setTime(START_MS + 2);
        assertThat(kvd.call("PERSIST", "k")).isEqualTo(ZERO);
        assertThat(kvd.call("EXISTS", "k")).isEqualTo(ZERO);
    }

    @Test
    void expiryCommandsCheckTheirArity() {
        assertThat(kvd.call("EXPIRE", "k")).isEqualTo("-ERR wrong number of arguments for 'expire' command\r\n");
        assertThat(kvd.call("PEXPIREAT", "k")).isEqualTo("-ERR wrong number of arguments for 'pexpireat' command\r\n");
        assertThat(kvd.call("TTL")).isEqualTo("-ERR wrong number of arguments for 'ttl' command\r\n");
        assertThat(kvd.call("PERSIST", "a", "b")).isEqualTo("-ERR wrong number of arguments for 'persist' command\r\n");
    }
}
