package io.kvd.server.command;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random argument vectors against the keyspace, with the clock moving: every reply is exactly one
 * well-formed RESP value, errors carry an upper-case code, and the keyspace's invariants hold. A
 * command that blocks is answered at once, as CLIENT UNBLOCK answers it.
 * Replays the corpus in src/test/resources on every build; {@code JAZZER_FUZZ=1 mvn test -pl
 * kvd-server -am -Dtest=CommandFuzzTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes.
 */
class CommandFuzzTest {
    private final CommandFixture kvd = new CommandFixture();

    @FuzzTest(maxDuration = "60s")
    void everyReplyIsOneWellFormedValueAndInvariantsHold(FuzzedDataProvider data) {
        while (data.remainingBytes() > 0) {
            kvd.setTime(CommandFixture.START_MS + data.consumeInt(0, 200_000));
            String[] argv = new String[data.consumeInt(1, 6)];
            for (int i = 0; i < argv.length; i++) {
                argv[i] = data.consumeBoolean() ? data.pickValue(CommandVocabulary.WORDS) : data.consumeString(12);
            }
            assertOneWellFormedReply(kvd.callRaw(argv));
            if (kvd.client.isBlocked()) {
                // A socket's client would wait; this one is answered as CLIENT UNBLOCK answers.
                assertThat(kvd.server.blockedClients().unblockEarly(kvd.client, null)).isTrue();
                assertOneWellFormedReply(kvd.pending(kvd.client).getBytes(StandardCharsets.ISO_8859_1));
            }
            kvd.keyspace.checkInvariants();
        }
    }

    private static void assertOneWellFormedReply(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        String reply = new String(bytes, StandardCharsets.ISO_8859_1);
        RespReply parsed = RespReplyParser.parse(buf);
        assertThat(parsed).as("a complete reply in %s", reply).isNotNull();
        assertThat(buf.readableBytes()).as("nothing after the reply in %s", reply).isZero();
        if (parsed instanceof RespReply.Error error) {
            assertThat(error.message()).matches("(?s)[A-Z]+ .*");
        }
    }
}
