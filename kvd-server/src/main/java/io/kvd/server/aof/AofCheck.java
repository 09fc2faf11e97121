package io.kvd.server.aof;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code java -jar kvd.jar --check-aof [--fix] FILE}, as redis-check-aof: reads every record,
 * reports the size and the end of the last good record, and with --fix truncates the file there
 * (without redis-check-aof's confirmation prompt). A MULTI the file ends without an EXEC for counts
 * as incomplete from the MULTI on, as the loader reverts it. Exit code 0 when the file is (now)
 * valid, else 1.
 */
public final class AofCheck {
    private AofCheck() {
    }

    public static int run(Path file, boolean fix, PrintStream out) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            AofReader reader = new AofReader(channel);
            String problem = null;
            long validUpTo;
            try {
                long transactionStart = -1;
                for (long recordStart = 0; ; recordStart = reader.validUpTo()) {
                    byte[][] argv = reader.next();
                    if (argv == null) {
                        break;
                    }
                    // Beyond the format, only where transactions start and end is checked.
                    if (transactionStart < 0 && isNamed(argv, "multi")) {
                        transactionStart = recordStart;
                    } else if (isNamed(argv, "exec")) {
                        transactionStart = -1;
                    }
                }
                validUpTo = reader.validUpTo();
                if (transactionStart >= 0) {
                    validUpTo = transactionStart;
                    problem = "the MULTI at offset " + transactionStart + " has no EXEC";
                } else if (reader.isTorn()) {
                    problem = "the last record is incomplete, from offset " + validUpTo;
                }
            } catch (AofFormatException e) {
                validUpTo = e.validUpTo();
                problem = e.getMessage();
            }
            long size = reader.fileSize();
            out.printf("AOF analyzed: filename=%s, size=%d, ok_up_to=%d, records=%d, diff=%d%n",
                    file, size, validUpTo, reader.records(), size - validUpTo);
            if (problem == null) {
                out.printf("AOF %s is valid%n", file);
                return 0;
            }
            if (!fix) {
                out.printf("AOF %s is not valid (%s). Use the --fix option to try fixing it.%n", file, problem);
                return 1;
            }
            channel.truncate(validUpTo);
            channel.force(true);
            out.printf("Successfully truncated AOF %s from %d to %d bytes (%s)%n", file, size, validUpTo, problem);
            return 0;
        } catch (IOException e) {
            out.printf("Cannot check AOF %s: %s%n", file, e);
            return 1;
        }
    }

    private static boolean isNamed(byte[][] argv, String name) {
        return new String(argv[0], StandardCharsets.US_ASCII).equalsIgnoreCase(name);
    }
}
