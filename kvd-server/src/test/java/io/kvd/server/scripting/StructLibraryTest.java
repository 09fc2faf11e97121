package io.kvd.server.scripting;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.scripting.ScriptFixture.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The struct library in scripts, against replies captured from redis-server 7.0.15. */
class StructLibraryTest {
    private final ScriptFixture lua = new ScriptFixture();

    @AfterEach
    void closeInterpreter() {
        lua.close();
    }

    /** Integer options b B h H l L T i I and In, little-endian by default. */
    @Test
    void packWritesIntegersInTheChosenOrderAndSize() {
        assertThat(lua.eval("return struct.pack('>i', 1)"))
                .isEqualTo("$4\r\n\u0000\u0000\u0000\u0001\r\n");
        assertThat(lua.eval("return struct.pack('<i', -2)"))
                .isEqualTo("$4\r\n\u00fe\u00ff\u00ff\u00ff\r\n");
        assertThat(lua.eval("return struct.pack('>bBhHlLiIT', -1, 255, -300, 65000, -5, 2^63, 7, 4294967295, 12)"))
                .isEqualTo("$38\r\n\u00ff\u00ff\u00fe\u00d4\u00fd\u00e8\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00fb\u0080\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0007\u00ff\u00ff\u00ff\u00ff\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u000c\r\n");
        assertThat(lua.eval("return struct.pack('>i3', 0x123456)"))
                .isEqualTo("$3\r\n\u00124V\r\n");
        assertThat(lua.eval("return struct.pack('<i16', -1)"))
                .isEqualTo("$16\r\n\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('>h', 70000)"))
                .isEqualTo("$2\r\n\u0011p\r\n");
        assertThat(lua.eval("return struct.pack('>L', -0.5)"))
                .isEqualTo("$8\r\n\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('>L', 3.9)"))
                .isEqualTo("$8\r\n\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0003\r\n");
    }

    /** f rounds to a float; NaN keeps its sign. */
    @Test
    void packWritesFloatsAndDoublesAsIeee754() {
        assertThat(lua.eval("return struct.pack('>f', 1.5)"))
                .isEqualTo("$4\r\n?\u00c0\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('<f', 0.1)"))
                .isEqualTo("$4\r\n\u00cd\u00cc\u00cc=\r\n");
        assertThat(lua.eval("return struct.pack('>f', 1e39)"))
                .isEqualTo("$4\r\n\u007f\u0080\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('>f', 1e-45)"))
                .isEqualTo("$4\r\n\u0000\u0000\u0000\u0001\r\n");
        assertThat(lua.eval("return struct.pack('>f', 0/0)"))
                .isEqualTo("$4\r\n\u00ff\u00c0\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('>d', -0.0)"))
                .isEqualTo("$8\r\n\u0080\u0000\u0000\u0000\u0000\u0000\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('>d', 5e-324)"))
                .isEqualTo("$8\r\n\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0001\r\n");
        assertThat(lua.eval("return struct.pack('<d', math.pi)"))
                .isEqualTo("$8\r\n\u0018-DT\u00fb!\t@\r\n");
    }

    /** !n sets the maximum alignment (8 without n). */
    @Test
    void alignmentPadsToTheSmallerOfSizeAndTheMaximum() {
        assertThat(lua.eval("return struct.pack('!4 b i', 1, 2)"))
                .isEqualTo("$8\r\n\u0001\u0000\u0000\u0000\u0002\u0000\u0000\u0000\r\n");
        assertThat(lua.eval("return struct.pack('!b d', 1, 2)"))
                .isEqualTo("$16\r\n\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000@\r\n");
        assertThat(lua.eval("return struct.pack('!2 b d', 1, 2)"))
                .isEqualTo("$10\r\n\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000@\r\n");
        assertThat(lua.eval("return struct.size('!8 b d')"))
                .isEqualTo(":16\r\n");
    }

    /** cn takes n bytes (c0 the whole string); s adds a zero byte. */
    @Test
    void stringsAreFixedOrZeroTerminated() {
        assertThat(lua.eval("return struct.pack('c5', 'abcdefgh')"))
                .isEqualTo("$5\r\nabcde\r\n");
        assertThat(lua.eval("return struct.pack('c0', 'abcdefgh')"))
                .isEqualTo("$8\r\nabcdefgh\r\n");
        assertThat(lua.eval("return struct.pack('s x c2', 'hi', 'yo')"))
                .isEqualTo("$6\r\nhi\u0000\u0000yo\r\n");
        assertThat(lua.eval("return struct.pack('c10', 'abc')"))
                .isEqualTo("-ERR user_script:1: bad argument #3 to 'pack' (string too short)" + at("return struct.pack('c10', 'abc')", 1));
    }

    /** unpack returns the values and the position after them. */
    @Test
    void unpackReadsValuesThenTheNextPosition() {
        assertThat(lua.eval("return {struct.unpack('<bBhH', struct.pack('<bBhH', -1, 255, -300, 65000))}"))
                .isEqualTo("*5\r\n:-1\r\n:255\r\n:-300\r\n:65000\r\n:7\r\n");
        assertThat(lua.eval("return tostring(struct.unpack('>L', '\\255\\255\\255\\255\\255\\255\\255\\255'))"))
                .isEqualTo("$18\r\n1.844674407371e+19\r\n");
        assertThat(lua.eval("return tostring(struct.unpack('>l', '\\128\\0\\0\\0\\0\\0\\0\\1'))"))
                .isEqualTo("$20\r\n-9.2233720368548e+18\r\n");
        assertThat(lua.eval("return tostring(struct.unpack('>i3', '\\255\\0\\1'))"))
                .isEqualTo("$6\r\n-65535\r\n");
        assertThat(lua.eval("return tostring(struct.unpack('>f', struct.pack('>f', 0.1)))"))
                .isEqualTo("$16\r\n0.10000000149012\r\n");
        assertThat(lua.eval("return {struct.unpack('b c0', '\\3abcd')}"))
                .isEqualTo("*2\r\n$3\r\nabc\r\n:5\r\n");
        assertThat(lua.eval("return {struct.unpack('s s', 'ab\\0cd\\0')}"))
                .isEqualTo("*3\r\n$2\r\nab\r\n$2\r\ncd\r\n:7\r\n");
        assertThat(lua.eval("return {struct.unpack('i', 'abcdabcd', 5)}"))
                .isEqualTo("*2\r\n:1684234849\r\n:9\r\n");
    }

    /** size refuses s and c0, which have no fixed size. */
    @Test
    void sizeAddsFixedSizesAndPadding() {
        assertThat(lua.eval("return struct.size('bhlTfdxc3i2I8')"))
                .isEqualTo(":45\r\n");
        assertThat(lua.eval("return struct.size('s')"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'size' (option 's' has no fixed size)" + at("return struct.size('s')", 1));
        assertThat(lua.eval("return struct.size('c0')"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'size' (option 'c0' has no fixed size)" + at("return struct.size('c0')", 1));
    }

    /** The C library's messages, with the script's position. */
    @Test
    void badFormatsAndDataAreErrors() {
        assertThat(lua.eval("return struct.pack('z', 1)"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'pack' (invalid format option 'z')" + at("return struct.pack('z', 1)", 1));
        assertThat(lua.eval("return struct.pack('i40', 1)"))
                .isEqualTo("-ERR user_script:1: integral size 40 is larger than limit of 32" + at("return struct.pack('i40', 1)", 1));
        assertThat(lua.eval("return struct.pack('c99999999999', 'a')"))
                .isEqualTo("-ERR user_script:1: integral size overflow" + at("return struct.pack('c99999999999', 'a')", 1));
        assertThat(lua.eval("return struct.pack('!3', 1)"))
                .isEqualTo("-ERR user_script:1: alignment 3 is not a power of 2" + at("return struct.pack('!3', 1)", 1));
        assertThat(lua.eval("return struct.pack('i')"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'pack' (number expected, got nil)" + at("return struct.pack('i')", 1));
        assertThat(lua.eval("return struct.pack('i', 'x')"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'pack' (number expected, got string)" + at("return struct.pack('i', 'x')", 1));
        assertThat(lua.eval("return struct.pack('c10', 'abc')"))
                .isEqualTo("-ERR user_script:1: bad argument #3 to 'pack' (string too short)" + at("return struct.pack('c10', 'abc')", 1));
        assertThat(lua.eval("return {struct.unpack('i', 'ab')}"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'unpack' (data string too short)" + at("return {struct.unpack('i', 'ab')}", 1));
        assertThat(lua.eval("return {struct.unpack('s', 'abcd')}"))
                .isEqualTo("-ERR user_script:1: unfinished string in data" + at("return {struct.unpack('s', 'abcd')}", 1));
        assertThat(lua.eval("return {struct.unpack('c0', '3abcd')}"))
                .isEqualTo("-ERR user_script:1: format 'c0' needs a previous size" + at("return {struct.unpack('c0', '3abcd')}", 1));
        assertThat(lua.eval("return {struct.unpack('i', 'abcdabcd', 0)}"))
                .isEqualTo("-ERR user_script:1: bad argument #3 to 'unpack' (offset must be 1 or greater)" + at("return {struct.unpack('i', 'abcdabcd', 0)}", 1));
        assertThat(lua.eval("return {struct.unpack('i', 'abcdabcd', -3)}"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'unpack' (data string too short)" + at("return {struct.unpack('i', 'abcdabcd', -3)}", 1));
    }
}
