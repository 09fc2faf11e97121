package io.kvd.server.command;

import io.kvd.server.client.Client;
import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
import io.kvd.server.protocol.Reply;
import io.kvd.server.store.Keyspace;
import io.kvd.server.store.ValueType;

import java.util.ArrayList;
import java.util.List;

/**
 * LCS (Redis 7.0's lcsCommand in t_string.c): the longest common subsequence of two strings,
 * by the O(n*m) dynamic programming table Redis builds, so the same limit refuses the same pairs.
 */
final class LcsCommand {
    private static final byte[] EMPTY = {};
    private static final String NOT_STRINGS = "ERR The specified keys must contain string values";
    private static final String LEN_AND_IDX = "ERR If you want both the length and indexes, please just use IDX.";
    private static final String TABLE_TOO_LARGE =
            "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
    private static final String TABLE_NOT_ALLOCATED =
            "ERR Insufficient memory, failed allocating transient memory for LCS";

    private LcsCommand() {
    }

    /** One run of matching bytes, positions included at both ends, as IDX lists it. */
    private record Match(int aStart, int aEnd, int bStart, int bEnd) {
        int length() {
            return aEnd - aStart + 1;
        }
    }

    /**
     * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: the keys are looked at before the
     * options are read; a missing key is an empty string.
     */
    static void lcs(Client client, byte[][] argv) {
        byte[] a = string(client.keyspace(), argv[1]);
        byte[] b = string(client.keyspace(), argv[2]);
        boolean len = false;
        boolean idx = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int j = 3; j < argv.length; j++) {
            if (Args.is(argv[j], "idx")) {
                idx = true;
            } else if (Args.is(argv[j], "len")) {
                len = true;
            } else if (Args.is(argv[j], "withmatchlen")) {
                withMatchLen = true;
            } else if (Args.is(argv[j], "minmatchlen") && j + 1 < argv.length) {
                minMatchLen = Math.max(Args.parseLong(argv[++j]), 0);
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        if (len && idx) {
            throw new CommandError(LEN_AND_IDX);
        }
        int[] table = table(client, a, b);
        int width = b.length + 1;
        int length = table[a.length * width + b.length];
        Reply reply = client.reply();
        if (len) {
            reply.integer(length);
            return;
        }
        byte[] common = new byte[length];
        List<Match> matches = backtrack(a, b, table, common, minMatchLen);
        if (!idx) {
            reply.bulk(common);
            return;
        }
        reply.mapHeader(2);
        reply.bulk("matches");
        reply.arrayHeader(matches.size());
        for (Match match : matches) {
            reply.arrayHeader(withMatchLen ? 3 : 2);
            reply.arrayHeader(2);
            reply.integer(match.aStart);
            reply.integer(match.aEnd);
            reply.arrayHeader(2);
            reply.integer(match.bStart);
            reply.integer(match.bEnd);
            if (withMatchLen) {
                reply.integer(match.length());
            }
        }
        reply.bulk("len");
        reply.integer(length);
    }

    /** A key's string, empty when missing; a key of another type refuses the command. */
    private static byte[] string(Keyspace keyspace, byte[] key) {
        ValueType type = keyspace.type(key);
        if (type == null) {
            return EMPTY;
        }
        if (type != ValueType.STRING) {
            throw new CommandError(NOT_STRINGS);
        }
        return keyspace.get(key);
    }

    /**
     * The table of LCS lengths, {@code (a.length + 1) * (b.length + 1)} cells of four bytes: the
     * cell at {@code i * (b.length + 1) + j} is the LCS length of the first i bytes of {@code a}
     * and the first j of {@code b}. As Redis, refused past proto-max-bulk-len bytes.
     */
    private static int[] table(Client client, byte[] a, byte[] b) {
        long cells = (long) (a.length + 1) * (b.length + 1);
        if (cells * Integer.BYTES > client.server().config().protoMaxBulkLen()) {
            throw new CommandError(TABLE_TOO_LARGE);
        }
        // Java's arrays stop short of 2^31 cells, whatever proto-max-bulk-len allows.
        if (cells > Integer.MAX_VALUE - 8) {
            throw new CommandError(TABLE_NOT_ALLOCATED);
        }
        int[] table;
        try {
            table = new int[(int) cells];
        } catch (OutOfMemoryError e) {
            // Redis's ztrymalloc failing: the one allocation is refused, the server goes on.
            throw new CommandError(TABLE_NOT_ALLOCATED);
        }
        int width = b.length + 1;
        for (int i = 1; i <= a.length; i++) {
            int row = i * width;
            int above = row - width;
            for (int j = 1; j <= b.length; j++) {
                table[row + j] = a[i - 1] == b[j - 1] ? table[above + j - 1] + 1
                        : Math.max(table[above + j], table[row + j - 1]);
            }
        }
        return table;
    }

    /**
     * Redis's walk back from the table's last cell: fills {@code common} from its end and returns
     * the runs of matches at least {@code minMatchLen} long, the last run first. On a tie it moves
     * along {@code b}, as Redis does, which decides which of several equally long LCSs is found.
     */
    private static List<Match> backtrack(byte[] a, byte[] b, int[] table, byte[] common, long minMatchLen) {
        List<Match> matches = new ArrayList<>();
        int width = b.length + 1;
        int i = a.length;
        int j = b.length;
        int next = common.length;
        // The run being extended backwards; aStart < 0 while there is none.
        int aStart = -1;
        int aEnd = 0;
        int bStart = 0;
        int bEnd = 0;
        while (i > 0 && j > 0) {
            boolean emit = false;
            if (a[i - 1] == b[j - 1]) {
                common[--next] = a[i - 1];
                if (aStart < 0) {
                    aStart = aEnd = i - 1;
                    bStart = bEnd = j - 1;
                } else if (aStart == i && bStart == j) {
                    aStart--;
                    bStart--;
                } else {
                    emit = true;
                }
                // A run that reached the start of either string ends here.
                if (aStart == 0 || bStart == 0) {
                    emit = true;
                }
                i--;
                j--;
            } else {
                if (table[(i - 1) * width + j] > table[i * width + j - 1]) {
                    i--;
                } else {
                    j--;
                }
                if (aStart >= 0) {
                    emit = true;
                }
            }
            if (emit) {
                Match match = new Match(aStart, aEnd, bStart, bEnd);
                if (minMatchLen == 0 || match.length() >= minMatchLen) {
                    matches.add(match);
                }
                aStart = -1;
            }
        }
        return matches;
    }
}
