package io.kvd.server.scripting;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.scripting.ScriptFixture.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The bit library (LuaBitOp 1.0.2) in scripts, against replies captured from redis-server 7.0.15. */
class BitLibraryTest {
    private final ScriptFixture lua = new ScriptFixture();

    @AfterEach
    void closeInterpreter() {
        lua.close();
    }

    /** barg: n + 2^52 + 2^51 rounds half to even, then the low 32 bits, signed. */
    @Test
    void tobitKeepsTheLow32BitsOfTheRoundedNumber() {
        assertThat(lua.eval("return bit.tobit(0xffffffff)"))
                .isEqualTo(":-1\r\n");
        assertThat(lua.eval("return bit.tobit(2^40 + 5)"))
                .isEqualTo(":5\r\n");
        assertThat(lua.eval("return tostring(bit.tobit(1e20))"))
                .isEqualTo("$10\r\n2025163840\r\n");
        assertThat(lua.eval("return tostring(bit.tobit(-1e20))"))
                .isEqualTo("$10\r\n2025163840\r\n");
        assertThat(lua.eval("return tostring(bit.tobit(2^53 + 3))"))
                .isEqualTo("$1\r\n2\r\n");
        assertThat(lua.eval("return {bit.tobit(0.5), bit.tobit(1.5), bit.tobit(-2.5)}"))
                .isEqualTo("*3\r\n:0\r\n:2\r\n:-2\r\n");
        assertThat(lua.eval("return {bit.tobit(1/0), bit.tobit(0/0)}"))
                .isEqualTo("*2\r\n:0\r\n:0\r\n");
        assertThat(lua.eval("return bit.tobit('0x10')"))
                .isEqualTo(":16\r\n");
    }

    /** band, bor and bxor take any number of arguments. */
    @Test
    void logicalOperationsFoldEveryArgument() {
        assertThat(lua.eval("return bit.band(0xff, 0x0f, 0x3)"))
                .isEqualTo(":3\r\n");
        assertThat(lua.eval("return bit.bor(1, 2, 4, 8)"))
                .isEqualTo(":15\r\n");
        assertThat(lua.eval("return bit.bxor(0xffff, 0xf0f0)"))
                .isEqualTo(":3855\r\n");
        assertThat(lua.eval("return bit.bnot(0)"))
                .isEqualTo(":-1\r\n");
        assertThat(lua.eval("return bit.band(-1, 0x80000000)"))
                .isEqualTo(":-2147483648\r\n");
    }

    /** lshift, rshift, arshift, rol, ror take the count's low 5 bits. */
    @Test
    void shiftsAndRotationsUseTheCountModulo32() {
        assertThat(lua.eval("return {bit.lshift(1, 31), bit.lshift(1, 32), bit.lshift(3, 33)}"))
                .isEqualTo("*3\r\n:-2147483648\r\n:1\r\n:6\r\n");
        assertThat(lua.eval("return bit.rshift(-1, 28)"))
                .isEqualTo(":15\r\n");
        assertThat(lua.eval("return {bit.arshift(-256, 4), bit.arshift(256, 4)}"))
                .isEqualTo("*2\r\n:-16\r\n:16\r\n");
        assertThat(lua.eval("return {bit.rol(0x12345678, 8), bit.ror(0x12345678, 8), bit.rol(0x12345678, 0)}"))
                .isEqualTo("*3\r\n:878082066\r\n:2014458966\r\n:305419896\r\n");
        assertThat(lua.eval("return bit.bswap(0x12345678)"))
                .isEqualTo(":2018915346\r\n");
    }

    /** tohex(x, n): n digits, upper case when n is negative. */
    @Test
    void tohexPrintsUpToEightDigits() {
        assertThat(lua.eval("return bit.tohex(255)"))
                .isEqualTo("$8\r\n000000ff\r\n");
        assertThat(lua.eval("return bit.tohex(-1, -4)"))
                .isEqualTo("$4\r\nFFFF\r\n");
        assertThat(lua.eval("return bit.tohex(0x12345678, 20)"))
                .isEqualTo("$8\r\n12345678\r\n");
        assertThat(lua.eval("return bit.tohex(1, 0)"))
                .isEqualTo("$0\r\n\r\n");
    }

    /** luaL_typerror's message, with the script's position as luaL_error adds it. */
    @Test
    void aNonNumberIsABadArgumentNamedAsTheCallerCalledIt() {
        assertThat(lua.eval("return bit.tobit()"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'tobit' (number expected, got no value)" + at("return bit.tobit()", 1));
        assertThat(lua.eval("return bit.tobit({})"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'tobit' (number expected, got table)" + at("return bit.tobit({})", 1));
        assertThat(lua.eval("return bit.band(1, 'x', {})"))
                .isEqualTo("-ERR user_script:1: bad argument #3 to 'band' (number expected, got table)" + at("return bit.band(1, 'x', {})", 1));
        assertThat(lua.eval("return bit.lshift(1)"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'lshift' (number expected, got no value)" + at("return bit.lshift(1)", 1));
        assertThat(lua.eval("local t = bit.tobit; return t()"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 't' (number expected, got no value)" + at("local t = bit.tobit; return t()", 1));
        assertThat(lua.eval("return bit:tobit()"))
                .isEqualTo("-ERR user_script:1: calling 'tobit' on bad self (number expected, got table)" + at("return bit:tobit()", 1));
        assertThat(lua.eval("return bit.tohex(1, nil)"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'tohex' (number expected, got nil)" + at("return bit.tohex(1, nil)", 1));
    }
}
