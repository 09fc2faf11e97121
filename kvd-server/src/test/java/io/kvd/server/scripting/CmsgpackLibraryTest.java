package io.kvd.server.scripting;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.scripting.ScriptFixture.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The cmsgpack library in scripts, against replies captured from redis-server 7.0.15. */
class CmsgpackLibraryTest {
    private final ScriptFixture lua = new ScriptFixture();

    @AfterEach
    void closeInterpreter() {
        lua.close();
    }

    /** Positive and negative fixnums, then 8, 16, 32 and 64 bits. */
    @Test
    void integersTakeTheSmallestEncoding() {
        assertThat(lua.eval("return cmsgpack.pack(127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, 2^53, -2^63)"))
                .isEqualTo("$48\r\n\u007f\u00cc\u0080\u00cc\u00ff\u00cd\u0001\u0000\u00cd\u00ff\u00ff\u00ce\u0000\u0001\u0000\u0000\u00ce\u00ff\u00ff\u00ff\u00ff\u00cf\u0000\u0000\u0000\u0001\u0000\u0000\u0000\u0000\u00cf\u0000 \u0000\u0000\u0000\u0000\u0000\u0000\u00d3\u0080\u0000\u0000\u0000\u0000\u0000\u0000\u0000\r\n");
        assertThat(lua.eval("return cmsgpack.pack(-1, -32, -33, -128, -129, -32768, -32769, -2147483648, -2147483649, -2^53)"))
                .isEqualTo("$40\r\n\u00ff\u00e0\u00d0\u00df\u00d0\u0080\u00d1\u00ff\u007f\u00d1\u0080\u0000\u00d2\u00ff\u00ff\u007f\u00ff\u00d2\u0080\u0000\u0000\u0000\u00d3\u00ff\u00ff\u00ff\u00ff\u007f\u00ff\u00ff\u00ff\u00d3\u00ff\u00e0\u0000\u0000\u0000\u0000\u0000\u0000\r\n");
    }

    /** A double that survives the trip through float is packed as float. */
    @Test
    void nonIntegersAreFloatsWhenExactOtherwiseDoubles() {
        assertThat(lua.eval("return cmsgpack.pack(0.5, 0.1, 1e300, 1/0, -1/0, 0/0, -0.0, 3.5e38, 2^63, 2^64)"))
                .isEqualTo("$62\r\n\u00ca?\u0000\u0000\u0000\u00cb?\u00b9\u0099\u0099\u0099\u0099\u0099\u009a\u00cb~7\u00e4<\u0088\u0000u\u009c\u00ca\u007f\u0080\u0000\u0000\u00ca\u00ff\u0080\u0000\u0000\u00cb\u00ff\u00f8\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u00cbG\u00f0t\u00f8\u00c4\u00d3\u00cd{\u00ca_\u0000\u0000\u0000\u00ca_\u0080\u0000\u0000\r\n");
    }

    /** Lengths 31, 32, 255, 256. */
    @Test
    void stringsTakeFixRaw8And16Headers() {
        assertThat(lua.eval("return cmsgpack.pack(string.rep('a', 31), string.rep('b', 32))"))
                .isEqualTo("$66\r\n\u00bfaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\u00d9 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\r\n");
        assertThat(lua.eval("return #cmsgpack.pack(string.rep('a', 255)) .. ' ' .. #cmsgpack.pack(string.rep('a', 256)) .. ' ' .. #cmsgpack.pack(string.rep('a', 65536))"))
                .isEqualTo("$13\r\n257 259 65541\r\n");
    }

    /** table_is_an_array: every key a positive integer, the largest equal to the count. */
    @Test
    void tablesWithKeysOneToNAreArraysOthersMaps() {
        assertThat(lua.eval("return cmsgpack.pack({})"))
                .isEqualTo("$1\r\n\u0090\r\n");
        assertThat(lua.eval("return cmsgpack.pack({1, 2, 3})"))
                .isEqualTo("$4\r\n\u0093\u0001\u0002\u0003\r\n");
        assertThat(lua.eval("return cmsgpack.pack({1, 2, nil, 4})"))
                .isEqualTo("$7\r\n\u0083\u0001\u0001\u0002\u0002\u0004\u0004\r\n");
        assertThat(lua.eval("return cmsgpack.pack({[1]=1, [3]=3})"))
                .isEqualTo("$5\r\n\u0082\u0001\u0001\u0003\u0003\r\n");
        assertThat(lua.eval("return cmsgpack.pack({a=1})"))
                .isEqualTo("$4\r\n\u0081\u00a1a\u0001\r\n");
        assertThat(lua.eval("return cmsgpack.pack({[1.5]=1, [0]=2})"))
                .isEqualTo("$9\r\n\u0082\u00ca?\u00c0\u0000\u0000\u0001\u0000\u0002\r\n");
        assertThat(lua.eval("local t = {} for i=1,20 do t[i]=i end return cmsgpack.pack(t)"))
                .isEqualTo("$23\r\n\u00dc\u0000\u0014\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\t\n\u000b\u000c\r\u000e\u000f\u0010\u0011\u0012\u0013\u0014\r\n");
    }

    /** The depth limit that lets a table holding itself be packed. */
    @Test
    void nestingPastSixteenTablesPacksNil() {
        assertThat(lua.eval("local t = {} t[1] = t return cmsgpack.pack(t)"))
                .isEqualTo("$17\r\n\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u0091\u00c0\r\n");
        assertThat(lua.eval("return cmsgpack.pack(true, false, nil, cjson.null, function() end)"))
                .isEqualTo("$5\r\n\u00c3\u00c2\u00c0\u00c0\u00c0\r\n");
    }

    /** unpack decodes a stream of values. */
    @Test
    void unpackReturnsEveryValue() {
        assertThat(lua.eval("return {cmsgpack.unpack(cmsgpack.pack(1, 'two', {3}, {a='b'}))}"))
                .isEqualTo("*4\r\n:1\r\n$3\r\ntwo\r\n*1\r\n:3\r\n*0\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack('')}"))
                .isEqualTo("*0\r\n");
        assertThat(lua.eval("return tostring(cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255'))"))
                .isEqualTo("$2\r\n-1\r\n");
        assertThat(lua.eval("return tostring(cmsgpack.unpack('\\211\\128\\0\\0\\0\\0\\0\\0\\1'))"))
                .isEqualTo("$20\r\n-9.2233720368548e+18\r\n");
        assertThat(lua.eval("return tostring(cmsgpack.unpack('\\202\\63\\192\\0\\0'))"))
                .isEqualTo("$3\r\n1.5\r\n");
        assertThat(lua.eval("return cmsgpack.unpack('\\217\\3abc')"))
                .isEqualTo("$3\r\nabc\r\n");
        assertThat(lua.eval("return cmsgpack.unpack('\\222\\0\\1\\1\\2')"))
                .isEqualTo("*1\r\n:2\r\n");
        assertThat(lua.eval("return select('#', cmsgpack.unpack(string.rep('\\192', 7999)))"))
                .isEqualTo(":7999\r\n");
    }

    /** Up to 200 values come back from Lua directly, past that through a table the Java entry spreads. */
    @Test
    void unpackReturnsEveryValueEitherSideOfTheDirectReturnLimit() {
        assertThat(lua.eval("local t = {cmsgpack.unpack(string.rep('\\1', 199) .. '\\2')}"
                + " local u = {cmsgpack.unpack(string.rep('\\1', 200) .. '\\2')}"
                + " return {#t, t[200], #u, u[201], select('#', cmsgpack.unpack_limit(string.rep('\\1', 300), 200))}"))
                .isEqualTo("*5\r\n:200\r\n:2\r\n:201\r\n:2\r\n:201\r\n");
    }

    /** The offset after the values, -1 at the end of the input. */
    @Test
    void unpackOneAndLimitReturnTheNextOffsetFirst() {
        assertThat(lua.eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))}"))
                .isEqualTo("*2\r\n:1\r\n:1\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)}"))
                .isEqualTo("*2\r\n:-1\r\n:3\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 3)}"))
                .isEqualTo("*1\r\n:-1\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}"))
                .isEqualTo("*3\r\n:2\r\n:1\r\n:2\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 0)}"))
                .isEqualTo("*3\r\n:1\r\n:2\r\n:3\r\n");
        assertThat(lua.eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 0, 1)}"))
                .isEqualTo("*1\r\n:1\r\n");
    }

    /** The C library's messages, with the script's position. */
    @Test
    void badInputIsAnError() {
        assertThat(lua.eval("return cmsgpack.pack()"))
                .isEqualTo("-ERR user_script:1: bad argument #0 to 'pack' (MessagePack pack needs input.)" + at("return cmsgpack.pack()", 1));
        assertThat(lua.eval("return cmsgpack.unpack()"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'unpack' (string expected, got no value)" + at("return cmsgpack.unpack()", 1));
        assertThat(lua.eval("return cmsgpack.unpack('\\193')"))
                .isEqualTo("-ERR user_script:1: Bad data format in input." + at("return cmsgpack.unpack('\\193')", 1));
        assertThat(lua.eval("return cmsgpack.unpack('\\205\\1')"))
                .isEqualTo("-ERR user_script:1: Missing bytes in input." + at("return cmsgpack.unpack('\\205\\1')", 1));
        assertThat(lua.eval("return cmsgpack.unpack('\\129\\192\\1')"))
                .isEqualTo("-ERR table index is nil" + at("return cmsgpack.unpack('\\129\\192\\1')", 1));
        assertThat(lua.eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 4)}"))
                .isEqualTo("-ERR user_script:1: Start offset 4 greater than input length 3." + at("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 4)}", 1));
        assertThat(lua.eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), -1)}"))
                .isEqualTo("-ERR user_script:1: Invalid request to unpack with offset of -1 and limit of 3." + at("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), -1)}", 1));
        assertThat(lua.eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3))}"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'unpack_limit' (number expected, got no value)" + at("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3))}", 1));
        assertThat(lua.eval("return select('#', cmsgpack.unpack(string.rep('\\192', 8000)))"))
                .isEqualTo("-ERR user_script:1: stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)" + at("return select('#', cmsgpack.unpack(string.rep('\\192', 8000)))", 1));
    }
}
