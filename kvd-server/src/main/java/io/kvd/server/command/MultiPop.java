package io.kvd.server.command;

import io.kvd.server.protocol.Args;
import io.kvd.server.protocol.CommandError;
import io.kvd.server.protocol.Errors;
/**
 * The arguments of LMPOP, BLMPOP, ZMPOP and BZMPOP from numkeys on: the keys
 * {@code argv[firstKey, keysEnd)}, the end popped from ({@code fromEnd}: RIGHT or MAX), the count
 * (1 unless given).
 */
record MultiPop(int firstKey, int keysEnd, boolean fromEnd, long count) {
    private static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    private static final String COUNT_NOT_POSITIVE = "ERR count should be greater than 0";

    /**
     * As Redis's lmpopGenericCommand and zmpopGenericCommand: numkeys, then the end ({@code start}
     * or {@code end}, e.g. LEFT or RIGHT), then COUNT, each refused in that order.
     */
    static MultiPop parse(byte[][] argv, int numkeysAt, String start, String end) {
        long numkeys = Args.parseLong(argv[numkeysAt], NUMKEYS_NOT_POSITIVE);
        if (numkeys < 1) {
            throw new CommandError(NUMKEYS_NOT_POSITIVE);
        }
        if (numkeys >= argv.length - numkeysAt - 1) {
            throw new CommandError(Errors.SYNTAX);
        }
        int whereAt = numkeysAt + 1 + (int) numkeys;
        boolean fromEnd;
        if (Args.is(argv[whereAt], start)) {
            fromEnd = false;
        } else if (Args.is(argv[whereAt], end)) {
            fromEnd = true;
        } else {
            throw new CommandError(Errors.SYNTAX);
        }
        long count = -1;
        for (int i = whereAt + 1; i < argv.length; i++) {
            if (count == -1 && Args.is(argv[i], "count") && i + 1 < argv.length) {
                count = Args.parseLong(argv[++i], COUNT_NOT_POSITIVE);
                if (count < 1) {
                    throw new CommandError(COUNT_NOT_POSITIVE);
                }
            } else {
                throw new CommandError(Errors.SYNTAX);
            }
        }
        return new MultiPop(numkeysAt + 1, whereAt, fromEnd, count == -1 ? 1 : count);
    }
}
