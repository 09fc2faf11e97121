package io.kvd.codec;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.kvd.codec.Inbound.args;
import static io.kvd.codec.Inbound.bytes;
import static io.kvd.codec.Inbound.decode;
import static io.kvd.codec.Inbound.protocolError;
import static org.assertj.core.api.Assertions.assertThat;

/** The protocol errors of Redis 7's networking.c, with its exact texts and limits. */
class RespDecoderProtocolErrorTest {
    private static final String LIMIT_FILLER = "1".repeat(RespDecoder.MAX_LINE_BYTES);

    @Test
    void inlineLineLongerThan64KilobytesWithoutLineEndIsTooBig() {
        assertThat(decode("a".repeat(RespDecoder.MAX_LINE_BYTES + 1)))
                .containsExactly(protocolError("too big inline request"));
    }

    @Test
    void inlineLineOfExactly64KilobytesWithoutLineEndStillWaits() {
        assertThat(decode("a".repeat(RespDecoder.MAX_LINE_BYTES))).isEmpty();
    }

    @Test
    void inlineLineWithANulBeforeItsEndNeverCompletesLikeRedisStrchr() {
        assertThat(decode("PI\0NG\r\nPING\r\n")).isEmpty();
        assertThat(decode("PI\0NG\r\n", "x".repeat(RespDecoder.MAX_LINE_BYTES)))
                .containsExactly(protocolError("too big inline request"));
    }

    @Test
    void unterminatedQuoteIsUnbalanced() {
        assertThat(decode("SET k \"v\r\n")).containsExactly(protocolError("unbalanced quotes in request"));
    }

    @Test
    void multibulkCountLineLongerThan64KilobytesIsTooBig() {
        assertThat(decode("*" + LIMIT_FILLER)).containsExactly(protocolError("too big mbulk count string"));
        assertThat(decode("*" + LIMIT_FILLER.substring(1))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*\r\n", "*abc\r\n", "*+1\r\n", "*01\r\n", "*-0\r\n", "* 1\r\n", "*1 \r\n",
            "*2147483648\r\n", "*100000000000000000000\r\n", "*9223372036854775808\r\n"})
    void multibulkCountThatIsNoIntegerOrAboveIntMaxIsInvalid(String frame) {
        assertThat(decode(frame)).containsExactly(protocolError("invalid multibulk length"));
    }

    @Test
    void multibulkCountOfIntMaxIsAcceptedAndWaitsForArguments() {
        assertThat(decode("*2147483647\r\n")).isEmpty();
    }

    @Test
    void bulkLengthLineLongerThan64KilobytesIsTooBig() {
        assertThat(decode("*1\r\n$" + LIMIT_FILLER)).containsExactly(protocolError("too big bulk count string"));
        assertThat(decode("*1\r\n$" + LIMIT_FILLER.substring(1))).isEmpty();
    }

    @Test
    void argumentThatIsNoBulkNamesTheByteFound() {
        assertThat(decode("*1\r\n:4\r\nPING\r\n")).containsExactly(protocolError("expected '$', got ':'"));
    }

    @Test
    void carriageReturnOrLineFeedFoundInsteadOfBulkIsShownAsSpaceLikeRedis() {
        assertThat(decode("*1\r\n\r\n")).containsExactly(protocolError("expected '$', got ' '"));
        assertThat(decode("*1\r\n\n\r\n")).containsExactly(protocolError("expected '$', got ' '"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"$\r\n", "$-1\r\n", "$-0\r\n", "$abc\r\n", "$+3\r\n", "$03\r\n", "$1x\r\n",
            "$536870913\r\n"})
    void bulkLengthThatIsNoIntegerOrNegativeOrAboveTheLimitIsInvalid(String header) {
        assertThat(decode("*1\r\n" + header)).containsExactly(protocolError("invalid bulk length"));
    }

    @Test
    void bulkLengthLimitIsTheConfiguredMaximum() {
        long[] limit = {Inbound.MAX_BULK};
        RespDecoder decoder = new RespDecoder(() -> limit[0]);
        limit[0] = 3;
        assertThat(Inbound.decode(decoder, List.of(bytes("*1\r\n$3\r\nfoo\r\n*1\r\n$4\r\nfour\r\n"))))
                .containsExactly(args("foo"), protocolError("invalid bulk length"));
    }

    @Test
    void unauthenticatedClientMaySendAtMostTenArguments() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        decoder.setAuthenticated(false);
        assertThat(Inbound.decode(decoder, List.of(bytes("*1\r\n$4\r\nPING\r\n*11\r\n"))))
                .containsExactly(args("PING"), protocolError("unauthenticated multibulk length"));
    }

    @Test
    void unauthenticatedClientMaySendBulksOfAtMostSixteenKilobytes() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        decoder.setAuthenticated(false);
        assertThat(Inbound.decode(decoder, List.of(bytes("*2\r\n$4\r\nAUTH\r\n$16385\r\n"))))
                .containsExactly(protocolError("unauthenticated bulk length"));
    }

    @Test
    void authenticatedClientHasNoSuchLimits() {
        String sixteenKilobytesAndOne = "x".repeat(16 * 1024 + 1);
        assertThat(decode("*11\r\n" + "$1\r\na\r\n".repeat(10) + "$" + sixteenKilobytesAndOne.length() + "\r\n"
                + sixteenKilobytesAndOne + "\r\n")).hasSize(1);
    }

    @Test
    void commandsBeforeAnErrorAreEmittedAndNothingAfterIt() {
        RespDecoder decoder = new RespDecoder(() -> Inbound.MAX_BULK);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("PING\r\n*1\r\n$4\r\nECHO\r\n*x\r\nPING\r\n")));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes("PING\r\n*1\r\n$4\r\nPING\r\n")));

        assertThat(Inbound.readAll(channel))
                .containsExactly(args("PING"), args("ECHO"), protocolError("invalid multibulk length"));
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }
}
