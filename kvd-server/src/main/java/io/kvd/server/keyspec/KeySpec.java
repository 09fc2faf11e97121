package io.kvd.server.keyspec;

import io.kvd.codec.RespReply;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One of a command's key specs as COMMAND INFO describes it (Redis 7.0's keySpec): how the
 * command uses the keys, where the search for them begins (an index, or after a keyword) and how
 * many follow (a range, or a count read from the request); "unknown" where a request must be
 * parsed to tell.
 */
public record KeySpec(Set<KeyFlag> flags, BeginSearch beginSearch, FindKeys findKeys) {

    /** Where the keys begin: {@link Index}, {@link Keyword} or {@link Unknown}. */
    public sealed interface BeginSearch {
    }

    /** How many keys follow: {@link Range}, {@link KeyNum} or {@link Unknown}. */
    public sealed interface FindKeys {
    }

    /** The keys begin at a fixed argument. */
    public record Index(int position) implements BeginSearch {
    }

    /**
     * The keys begin after {@code keyword}, searched from {@code startFrom} towards the end, or
     * from the end backwards if negative.
     */
    public record Keyword(String keyword, int startFrom) implements BeginSearch {
    }

    /**
     * The keys run to {@code lastKey} past the first (negative: from the end of the request), every
     * {@code step}; with a {@code limit}, only 1/limit of the arguments left are keys (XREAD's STREAMS).
     */
    public record Range(int lastKey, int step, int limit) implements FindKeys {
    }

    /** The count of keys is the argument {@code keyNumIndex} past the start, the keys from {@code firstKey} past it. */
    public record KeyNum(int keyNumIndex, int firstKey, int step) implements FindKeys {
    }

    /** A spec the request must be parsed for (SORT's STORE): Redis's getkeys function answers instead. */
    public record Unknown() implements BeginSearch, FindKeys {
    }

    /** The key specs of a COMMAND INFO entry's ninth element: a map per spec. */
    static List<KeySpec> parseAll(RespReply specs) {
        List<KeySpec> parsed = new ArrayList<>();
        for (RespReply spec : elements(specs)) {
            Map<String, RespReply> fields = map(spec);
            EnumSet<KeyFlag> flags = EnumSet.noneOf(KeyFlag.class);
            for (RespReply flag : elements(fields.get("flags"))) {
                flags.add(KeyFlag.ofReplyName(((RespReply.SimpleString) flag).value()));
            }
            parsed.add(new KeySpec(Collections.unmodifiableSet(flags), beginSearch(map(fields.get("begin_search"))),
                    findKeys(map(fields.get("find_keys")))));
        }
        return parsed;
    }

    private static BeginSearch beginSearch(Map<String, RespReply> search) {
        Map<String, RespReply> spec = map(search.get("spec"));
        return switch (text(search.get("type"))) {
            case "index" -> new Index(integer(spec.get("index")));
            case "keyword" -> new Keyword(text(spec.get("keyword")), integer(spec.get("startfrom")));
            default -> new Unknown();
        };
    }

    private static FindKeys findKeys(Map<String, RespReply> find) {
        Map<String, RespReply> spec = map(find.get("spec"));
        return switch (text(find.get("type"))) {
            case "range" -> new Range(integer(spec.get("lastkey")), integer(spec.get("keystep")),
                    integer(spec.get("limit")));
            case "keynum" -> new KeyNum(integer(spec.get("keynumidx")), integer(spec.get("firstkey")),
                    integer(spec.get("keystep")));
            default -> new Unknown();
        };
    }

    private static List<RespReply> elements(RespReply array) {
        return ((RespReply.Array) array).elements();
    }

    private static Map<String, RespReply> map(RespReply pairs) {
        List<RespReply> elements = elements(pairs);
        Map<String, RespReply> map = new HashMap<>();
        for (int i = 0; i < elements.size(); i += 2) {
            map.put(text(elements.get(i)), elements.get(i + 1));
        }
        return map;
    }

    private static String text(RespReply bulk) {
        return ((RespReply.BulkString) bulk).utf8();
    }

    private static int integer(RespReply integer) {
        return (int) ((RespReply.Integer) integer).value();
    }
}
