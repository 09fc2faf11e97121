package io.kvd.server.keyspec;

import io.kvd.codec.RespReply;
import io.kvd.server.numeric.IntegerText;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where a command's keys are in a request and how it uses them, as Redis 7.0's
 * getKeysFromCommandWithSpecs finds them (db.c): by the command's key specs when they are reliable
 * for every request, else, or when they fail on this request, by its getkeys function
 * ({@link KeyProcedures}). COMMAND GETKEYS and GETKEYSANDFLAGS answer with it.
 */
public final class CommandKeys {
    private final List<KeySpec> specs;
    private final Function<byte[][], List<KeyReference>> procedure;
    /** Worked out once: ACL checks ask on every command a restricted user runs. */
    private final boolean hasKeys;
    private final boolean reliableSpecs;

    CommandKeys(List<KeySpec> specs, Function<byte[][], List<KeyReference>> procedure) {
        this.specs = specs;
        this.procedure = procedure;
        this.hasKeys = procedure != null || specs.stream().anyMatch(spec -> !spec.flags().contains(KeyFlag.NOT_KEY));
        this.reliableSpecs = specs.stream().anyMatch(spec -> !spec.flags().contains(KeyFlag.NOT_KEY))
                && specs.stream().noneMatch(spec -> spec.flags().contains(KeyFlag.VARIABLE_FLAGS));
    }

    /** The keys of the command a COMMAND INFO entry describes (its full name, key specs, getkeys function). */
    public static CommandKeys of(RespReply commandInfo) {
        List<RespReply> fields = ((RespReply.Array) commandInfo).elements();
        String name = ((RespReply.BulkString) fields.get(0)).utf8();
        return new CommandKeys(KeySpec.parseAll(fields.get(8)), KeyProcedures.of(name));
    }

    /** Redis's doesCommandHaveKeys: a getkeys function, or a spec of something that is a key. */
    public boolean hasKeys() {
        return hasKeys;
    }

    /**
     * Redis's getKeysFromCommandWithSpecs with no search flags: the keys of {@code argv} (the
     * request, name first), in the specs' order, or the getkeys function's; empty if neither finds any.
     */
    public List<KeyReference> find(byte[][] argv) {
        if (reliableSpecs) {
            List<KeyReference> keys = bySpecs(argv);
            if (keys != null) {
                return keys;
            }
        }
        return procedure == null ? List.of() : procedure.apply(argv);
    }

    /**
     * Redis's getKeysUsingKeySpecs: each spec's keys in turn (a keyword not found gives none);
     * null if a spec is unknown or incomplete, or its keys run outside the request.
     */
    private List<KeyReference> bySpecs(byte[][] argv) {
        List<KeyReference> keys = new ArrayList<>();
        for (KeySpec spec : specs) {
            if (spec.flags().contains(KeyFlag.NOT_KEY)) {
                continue;
            }
            int first;
            if (spec.beginSearch() instanceof KeySpec.Index index) {
                first = index.position();
            } else if (spec.beginSearch() instanceof KeySpec.Keyword keyword) {
                first = afterKeyword(argv, keyword);
                if (first == 0) {
                    continue;
                }
            } else {
                return null;
            }
            int last;
            int step;
            if (spec.findKeys() instanceof KeySpec.Range range) {
                step = range.step();
                if (range.lastKey() >= 0) {
                    last = first + range.lastKey();
                } else if (range.limit() == 0) {
                    last = argv.length + range.lastKey();
                } else {
                    last = first + (argv.length - first) / range.limit() + range.lastKey();
                }
            } else if (spec.findKeys() instanceof KeySpec.KeyNum keyNum) {
                step = keyNum.step();
                int countAt = first + keyNum.keyNumIndex();
                Long count = countAt < argv.length ? IntegerText.string2ll(argv[countAt]) : null;
                if (count == null || count < 0) {
                    return null;
                }
                first += keyNum.firstKey();
                last = first + (int) (long) count - 1;
            } else {
                return null;
            }
            if (last >= argv.length || last < first || first >= argv.length) {
                return null;
            }
            for (int i = first; i <= last; i += step) {
                keys.add(new KeyReference(i, spec.flags()));
            }
            if (spec.flags().contains(KeyFlag.INCOMPLETE)) {
                return null;
            }
        }
        return keys;
    }

    /**
     * The position after the spec's keyword, searched as Redis does: from {@code startFrom} up to,
     * not including, the last argument, or from the end down to, not including, the first one;
     * 0 if not found.
     */
    private static int afterKeyword(byte[][] argv, KeySpec.Keyword keyword) {
        int start = keyword.startFrom() > 0 ? keyword.startFrom() : argv.length + keyword.startFrom();
        int end = keyword.startFrom() > 0 ? argv.length - 1 : 1;
        for (int i = start; i != end; i = start <= end ? i + 1 : i - 1) {
            if (i >= argv.length || i < 1) {
                break;
            }
            if (KeyProcedures.is(argv[i], keyword.keyword())) {
                return i + 1;
            }
        }
        return 0;
    }
}
