package io.kvd.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** Commands written by {@link RespWriter} decode to themselves, however the bytes are cut. */
class RespRoundTripTest {
    /** Set {@code -Dkvd.test.seed=N} to replay a failing run. */
    private static final long SEED = Long.getLong("kvd.test.seed", 20240601L);
    private static final byte[] INTERESTING_BYTES = {'\r', '\n', '*', '$', ' ', '"', '\'', 0, (byte) 0xff};

    @Test
    void randomCommandsCutAtRandomPointsDecodeToThemselves() {
        System.out.println("RespRoundTripTest seed=" + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        for (int round = 0; round < 200; round++) {
            List<List<String>> commands = new ArrayList<>();
            ByteBuf stream = Unpooled.buffer();
            for (int i = random.nextInt(1, 20); i > 0; i--) {
                byte[][] command = randomCommand(random);
                RespWriter.writeCommand(stream, command);
                commands.add(Inbound.strings(command));
            }
            byte[] input = new byte[stream.readableBytes()];
            stream.readBytes(input);
            stream.release();

            int[] cuts = random.ints(random.nextInt(0, 40), 0, input.length + 1).sorted().toArray();
            assertThat(Inbound.decodeCutAt(input, cuts))
                    .as("seed %d round %d", SEED, round)
                    .containsExactlyElementsOf(commands);
        }
    }

    private static byte[][] randomCommand(SplittableRandom random) {
        byte[][] command = new byte[random.nextInt(1, 8)][];
        for (int i = 0; i < command.length; i++) {
            // Now and then an argument long enough for a header past the shared 0..9999 ones.
            int length = random.nextInt(50) == 0 ? random.nextInt(10_000, 20_000) : random.nextInt(0, 24);
            command[i] = new byte[length];
            for (int j = 0; j < length; j++) {
                command[i][j] = random.nextInt(4) == 0
                        ? INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)]
                        : (byte) random.nextInt(256);
            }
        }
        return command;
    }
}
