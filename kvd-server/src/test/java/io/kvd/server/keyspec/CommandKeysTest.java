package io.kvd.server.keyspec;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static io.kvd.server.keyspec.KeyFlag.*;
import static org.assertj.core.api.Assertions.assertThat;

class CommandKeysTest {
    private static final Set<KeyFlag> READ = Set.of(RO, ACCESS);
    private static final Set<KeyFlag> WRITE = Set.of(OW, UPDATE);

    private static byte[][] request(String... args) {
        return Arrays.stream(args).map(a -> a.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }

    private static KeySpec spec(Set<KeyFlag> flags, KeySpec.BeginSearch begin, KeySpec.FindKeys find) {
        return new KeySpec(flags, begin, find);
    }

    private static CommandKeys specsOnly(KeySpec... specs) {
        return new CommandKeys(List.of(specs), null);
    }

    private static List<Integer> positions(List<KeyReference> keys) {
        return keys.stream().map(KeyReference::position).toList();
    }

    @Test
    void indexAndRangeFindEveryStepToTheEnd() {
        CommandKeys mset = specsOnly(spec(WRITE, new KeySpec.Index(1), new KeySpec.Range(-1, 2, 0)));
        assertThat(mset.find(request("mset", "a", "1", "b", "2")))
                .containsExactly(new KeyReference(1, WRITE), new KeyReference(3, WRITE));
    }

    @Test
    void specsAnswerInTheirOrder() {
        CommandKeys lmove = specsOnly(spec(Set.of(RW, ACCESS, DELETE), new KeySpec.Index(1), new KeySpec.Range(0, 1, 0)),
                spec(Set.of(RW, INSERT), new KeySpec.Index(2), new KeySpec.Range(0, 1, 0)));
        assertThat(lmove.find(request("lmove", "src", "dst", "left", "right")))
                .containsExactly(new KeyReference(1, Set.of(RW, ACCESS, DELETE)), new KeyReference(2, Set.of(RW, INSERT)));
    }

    @Test
    void keywordIsSearchedFromItsStartUpToButNotIncludingTheLastArgument() {
        CommandKeys store = specsOnly(spec(WRITE, new KeySpec.Keyword("STORE", 2), new KeySpec.Range(0, 1, 0)));
        assertThat(positions(store.find(request("cmd", "k", "x", "store", "dst")))).containsExactly(4);
        assertThat(store.find(request("cmd", "k", "x", "store"))).isEmpty();
        assertThat(store.find(request("cmd", "store", "x", "y"))).as("before the start").isEmpty();
    }

    @Test
    void negativeKeywordStartSearchesBackwardsFromTheEnd() {
        CommandKeys last = specsOnly(spec(READ, new KeySpec.Keyword("KEYS", -2), new KeySpec.Range(-1, 1, 0)));
        assertThat(positions(last.find(request("cmd", "keys", "a", "keys", "b")))).containsExactly(4);
    }

    @Test
    void rangeWithALimitTakesItsShareOfWhatFollows() {
        CommandKeys xread = specsOnly(spec(READ, new KeySpec.Keyword("STREAMS", 1), new KeySpec.Range(-1, 1, 2)));
        assertThat(positions(xread.find(request("xread", "count", "1", "streams", "a", "b", "0", "0"))))
                .containsExactly(4, 5);
    }

    @Test
    void keyNumReadsTheCountThenThatManyKeys() {
        CommandKeys zunion = specsOnly(spec(READ, new KeySpec.Index(1), new KeySpec.KeyNum(0, 1, 1)));
        assertThat(positions(zunion.find(request("zunion", "2", "a", "b", "withscores")))).containsExactly(2, 3);
    }

    @Test
    void aFailedSpecLeavesTheKeysToTheGetkeysFunction() {
        List<KeySpec> specs = List.of(spec(READ, new KeySpec.Index(1), new KeySpec.KeyNum(0, 1, 1)));
        CommandKeys zunion = new CommandKeys(specs, KeyProcedures.of("zunion"));
        // string2ll refuses "2x" and the getkeys function's atoi reads 2, with no flags.
        assertThat(zunion.find(request("zunion", "2x", "a", "b")))
                .containsExactly(new KeyReference(2, Set.of()), new KeyReference(3, Set.of()));
        assertThat(zunion.find(request("zunion", "3", "a", "b"))).as("count past the end").isEmpty();
        assertThat(zunion.find(request("zunion", "0", "a"))).as("no keys").isEmpty();
    }

    @Test
    void keysOutsideTheRequestFindNothingWithoutAGetkeysFunction() {
        CommandKeys zunion = specsOnly(spec(READ, new KeySpec.Index(1), new KeySpec.KeyNum(0, 1, 1)));
        assertThat(zunion.find(request("zunion", "3", "a", "b"))).isEmpty();
    }

    @Test
    void anUnknownOrIncompleteSpecLeavesTheKeysToTheGetkeysFunction() {
        CommandKeys sort = new CommandKeys(List.of(spec(READ, new KeySpec.Index(1), new KeySpec.Range(0, 1, 0)),
                spec(WRITE, new KeySpec.Unknown(), new KeySpec.Unknown())), KeyProcedures.of("sort"));
        assertThat(sort.find(request("sort", "k", "store", "a", "store", "b")))
                .containsExactly(new KeyReference(1, READ), new KeyReference(5, WRITE));
        CommandKeys incomplete = new CommandKeys(List.of(spec(Set.of(RO, INCOMPLETE), new KeySpec.Index(1),
                new KeySpec.Range(0, 1, 0))), argv -> List.of(new KeyReference(2, Set.of())));
        assertThat(incomplete.find(request("cmd", "a", "b"))).containsExactly(new KeyReference(2, Set.of()));
    }

    @Test
    void variableFlagsAreTheGetkeysFunctionsToSet() {
        CommandKeys set = new CommandKeys(List.of(spec(Set.of(RW, ACCESS, UPDATE, VARIABLE_FLAGS), new KeySpec.Index(1),
                new KeySpec.Range(0, 1, 0))), KeyProcedures.of("set"));
        assertThat(set.find(request("set", "k", "v", "nx"))).containsExactly(new KeyReference(1, WRITE));
        assertThat(set.find(request("set", "k", "v", "GET"))).containsExactly(new KeyReference(1, Set.of(RW, ACCESS, UPDATE)));
    }

    @Test
    void bitfieldIsReadOnlyWhileEveryOperationIsACompleteGetOrOverflow() {
        var bitfield = KeyProcedures.of("bitfield");
        assertThat(bitfield.apply(request("bitfield", "k", "get", "u8", "0", "overflow", "sat", "get", "i4", "3")))
                .containsExactly(new KeyReference(1, READ));
        assertThat(bitfield.apply(request("bitfield", "k", "get", "u8")))
                .containsExactly(new KeyReference(1, Set.of(RW, ACCESS, UPDATE)));
        assertThat(bitfield.apply(request("bitfield", "k", "incrby", "u8", "0", "1")))
                .containsExactly(new KeyReference(1, Set.of(RW, ACCESS, UPDATE)));
    }

    @Test
    void theStoreKeyOfACountedCommandComesLast() {
        assertThat(positions(KeyProcedures.of("zunionstore").apply(request("zunionstore", "dst", "2", "a", "b"))))
                .containsExactly(3, 4, 1);
    }

    @Test
    void georadiusGetkeysFunctionTakesTheLastStoreOrStoredistKey() {
        var georadius = KeyProcedures.of("georadius");
        assertThat(positions(georadius.apply(request("georadius", "k", "1", "2", "3", "km", "STORE", "a", "STOREDIST", "b"))))
                .containsExactly(1, 9);
        assertThat(positions(georadius.apply(request("georadiusbymember", "k", "m", "3", "km", "STORE")))).containsExactly(1);
    }

    @Test
    void migratesKeysAreReadAndDeletedInBothForms() {
        Set<KeyFlag> moved = Set.of(RW, ACCESS, DELETE);
        var migrate = KeyProcedures.of("migrate");
        assertThat(migrate.apply(request("migrate", "h", "p", "k", "0", "5000")))
                .containsExactly(new KeyReference(3, moved));
        assertThat(migrate.apply(request("migrate", "h", "p", "", "0", "5000", "AUTH2", "KEYS", "x", "KEYS", "a", "b")))
                .containsExactly(new KeyReference(10, moved), new KeyReference(11, moved));
        assertThat(migrate.apply(request("migrate", "h", "p", "k", "0", "5000", "KEYS", "a"))).isEmpty();
    }

    @Test
    void xreadsGetkeysFunctionSkipsOptionsAndRefusesAnOddTail() {
        var xread = KeyProcedures.of("xreadgroup");
        assertThat(positions(xread.apply(request("xreadgroup", "group", "streams", "c", "streams", "s", ">"))))
                .containsExactly(5);
        assertThat(xread.apply(request("xread", "streams", "a", "b", "0"))).isEmpty();
        assertThat(xread.apply(request("xread", "foo", "streams", "a", "0"))).isEmpty();
    }

    @Test
    void specsOfThingsThatAreNotKeysAreSkipped() {
        CommandKeys spublish = specsOnly(spec(Set.of(NOT_KEY), new KeySpec.Index(1), new KeySpec.Range(0, 1, 0)));
        assertThat(spublish.hasKeys()).isFalse();
        assertThat(spublish.find(request("spublish", "ch", "m"))).isEmpty();
    }

    @Test
    void readsTheSpecsOfACommandInfoEntry() {
        String getInfo = "*10\r\n$3\r\nget\r\n:2\r\n*2\r\n+readonly\r\n+fast\r\n:1\r\n:1\r\n:1\r\n"
                + "*3\r\n+@read\r\n+@string\r\n+@fast\r\n*0\r\n*1\r\n*6\r\n$5\r\nflags\r\n*2\r\n+RO\r\n+access\r\n"
                + "$12\r\nbegin_search\r\n*4\r\n$4\r\ntype\r\n$5\r\nindex\r\n$4\r\nspec\r\n*2\r\n$5\r\nindex\r\n:1\r\n"
                + "$9\r\nfind_keys\r\n*4\r\n$4\r\ntype\r\n$5\r\nrange\r\n$4\r\nspec\r\n*6\r\n$7\r\nlastkey\r\n:0\r\n"
                + "$7\r\nkeystep\r\n:1\r\n$5\r\nlimit\r\n:0\r\n*0\r\n";
        ByteBuf bytes = Unpooled.copiedBuffer(getInfo, StandardCharsets.UTF_8);
        RespReply info;
        try {
            info = RespReplyParser.parse(bytes);
        } finally {
            bytes.release();
        }
        CommandKeys get = CommandKeys.of(info);
        assertThat(get.hasKeys()).isTrue();
        assertThat(get.find(request("get", "k"))).containsExactly(new KeyReference(1, READ));
    }

    @Test
    void flagsPrintAsRedisPrintsThem() {
        assertThat(RW.replyName()).isEqualTo("RW");
        assertThat(VARIABLE_FLAGS.replyName()).isEqualTo("variable_flags");
        assertThat(KeyFlag.ofReplyName("not_key")).isEqualTo(NOT_KEY);
    }
}
