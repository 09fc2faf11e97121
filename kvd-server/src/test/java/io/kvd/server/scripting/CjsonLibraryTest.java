package io.kvd.server.scripting;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.kvd.server.scripting.ScriptFixture.at;
import static org.assertj.core.api.Assertions.assertThat;

/** The cjson library in scripts, against replies captured from redis-server 7.0.15. */
class CjsonLibraryTest {
    private final ScriptFixture lua = new ScriptFixture();

    @AfterEach
    void closeInterpreter() {
        lua.close();
    }

    /** %.14g, as fpconv_g_fmt prints at the default precision. */
    @Test
    void encodePrintsNumbersWithFourteenDigits() {
        assertThat(lua.eval("return cjson.encode({1/3, 1e15, 1e100, -0.0, 123456789012345678, 0.1, 5})"))
                .isEqualTo("$60\r\n[0.33333333333333,1e+15,1e+100,-0,1.2345678901235e+17,0.1,5]\r\n");
    }

    /** An object's member values are read whole: a number's fraction, exponent and every digit. */
    @Test
    void decodeReadsObjectMemberNumbersWhole() {
        assertThat(lua.eval("local t = cjson.decode('{\"a\":-165864.38357652,\"b\":12,\"c\":1e5,\"d\":-7}')"
                + " return tostring(t.a) .. ' ' .. t.b .. ' ' .. t.c .. ' ' .. t.d"))
                .isEqualTo("$29\r\n-165864.38357652 12 100000 -7\r\n");
    }

    /**
     * A second encoding of the same keys and numbers, whose texts encode remembers, is the first's;
     * 0 and -0.0 (one table key) keep their own; a large output's parts do not reach the next.
     */
    @Test
    void encodeRepeatsItselfAcrossCalls() {
        String script = "return cjson.encode({['a/b']=1.5, c={12345, 'x'}})";
        assertThat(lua.eval(script)).isEqualTo("$28\r\n{\"a\\/b\":1.5,\"c\":[12345,\"x\"]}\r\n");
        assertThat(lua.eval(script)).isEqualTo("$28\r\n{\"a\\/b\":1.5,\"c\":[12345,\"x\"]}\r\n");
        assertThat(lua.eval("return cjson.encode({-0.0})")).isEqualTo("$4\r\n[-0]\r\n");
        assertThat(lua.eval("return cjson.encode({0})")).isEqualTo("$3\r\n[0]\r\n");
        assertThat(lua.eval("local t = {} for i = 1, 300 do t[i] = i end cjson.encode(t) return cjson.encode({1, 2})"))
                .isEqualTo("$5\r\n[1,2]\r\n");
    }

    /** char2escape: a slash is escaped, other control bytes as u00XX escapes, bytes from 128 as they are. */
    @Test
    void encodeEscapesControlCharactersQuotesAndSlash() {
        assertThat(lua.eval("return cjson.encode('a/b\"c\\\\d\\n\\t\\r\\b\\f\\0\\1\\31\\127\\128\\255')"))
                .isEqualTo("$48\r\n\"a\\/b\\\"c\\\\d\\n\\t\\r\\b\\f\\u0000\\u0001\\u001f\\u007f\u0080\u00ff\"\r\n");
    }

    /** A table whose keys are integers from 1 is an array, holes as null. */
    @Test
    void encodeWritesArraysAndObjects() {
        assertThat(lua.eval("return cjson.encode({})"))
                .isEqualTo("$2\r\n{}\r\n");
        assertThat(lua.eval("return cjson.encode({{}, {{}}})"))
                .isEqualTo("$9\r\n[{},[{}]]\r\n");
        assertThat(lua.eval("return cjson.encode({[1] = 1, [2] = 2, [4] = 4})"))
                .isEqualTo("$12\r\n[1,2,null,4]\r\n");
        assertThat(lua.eval("return cjson.encode({[10] = 1})"))
                .isEqualTo("$48\r\n[null,null,null,null,null,null,null,null,null,1]\r\n");
        assertThat(lua.eval("return cjson.encode({[1.5] = 1})"))
                .isEqualTo("$9\r\n{\"1.5\":1}\r\n");
        assertThat(lua.eval("return cjson.encode({[1] = 'a', x = 'b'})"))
                .isEqualTo("$17\r\n{\"1\":\"a\",\"x\":\"b\"}\r\n");
        assertThat(lua.eval("return cjson.encode({cjson.null, false, true})"))
                .isEqualTo("$17\r\n[null,false,true]\r\n");
    }

    /** encode_sparse_array(convert, ratio, safe). */
    @Test
    void excessivelySparseArraysAreErrorsUnlessConverted() {
        assertThat(lua.eval("return cjson.encode({[1] = 1, [20] = 2})"))
                .isEqualTo("-ERR user_script:1: Cannot serialise table: excessively sparse array" + at("return cjson.encode({[1] = 1, [20] = 2})", 1));
        assertThat(lua.eval("return {cjson.encode_sparse_array(true)}"))
                .isEqualTo("*3\r\n:1\r\n:2\r\n:10\r\n");
        assertThat(lua.eval("return cjson.encode({[1] = 1, [20] = 2})"))
                .isEqualTo("$14\r\n{\"1\":1,\"20\":2}\r\n");
        assertThat(lua.eval("return {cjson.encode_sparse_array(false, 2, 10)}"))
                .isEqualTo("*3\r\n$-1\r\n:2\r\n:10\r\n");
    }

    /** NaN, infinities, functions, keys of other types, too deep nesting. */
    @Test
    void encodeRefusesWhatJsonCannotHold() {
        assertThat(lua.eval("return cjson.encode(1/0)"))
                .isEqualTo("-ERR user_script:1: Cannot serialise number: must not be NaN or Inf" + at("return cjson.encode(1/0)", 1));
        assertThat(lua.eval("return cjson.encode({[true] = 1})"))
                .isEqualTo("-ERR user_script:1: Cannot serialise boolean: table key must be a number or string" + at("return cjson.encode({[true] = 1})", 1));
        assertThat(lua.eval("return cjson.encode({f = function() end})"))
                .isEqualTo("-ERR user_script:1: Cannot serialise function: type not supported" + at("return cjson.encode({f = function() end})", 1));
        assertThat(lua.eval("local t = {} t[1] = t return cjson.encode(t)"))
                .isEqualTo("-ERR user_script:1: Cannot serialise, excessive nesting (1001)" + at("local t = {} t[1] = t return cjson.encode(t)", 1));
        assertThat(lua.eval("return cjson.encode()"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode' (expected 1 argument)" + at("return cjson.encode()", 1));
        assertThat(lua.eval("return cjson.encode(1, 2)"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode' (expected 1 argument)" + at("return cjson.encode(1, 2)", 1));
    }

    /** Each option function sets when given a value and returns the setting. */
    @Test
    void optionsReturnTheirSettings() {
        assertThat(lua.eval("return cjson.encode_number_precision(3)"))
                .isEqualTo(":3\r\n");
        assertThat(lua.eval("return cjson.encode({1/3, 12345.678})"))
                .isEqualTo("$16\r\n[0.333,1.23e+04]\r\n");
        assertThat(lua.eval("return cjson.encode_number_precision(14)"))
                .isEqualTo(":14\r\n");
        assertThat(lua.eval("return cjson.encode_invalid_numbers('null')"))
                .isEqualTo("$4\r\nnull\r\n");
        assertThat(lua.eval("return cjson.encode({1/0, 0/0})"))
                .isEqualTo("$11\r\n[null,null]\r\n");
        assertThat(lua.eval("return cjson.encode_invalid_numbers(false)"))
                .isEqualTo("$-1\r\n");
        assertThat(lua.eval("return cjson.encode_keep_buffer()"))
                .isEqualTo(":1\r\n");
        assertThat(lua.eval("return cjson.encode_max_depth()"))
                .isEqualTo(":1000\r\n");
        assertThat(lua.eval("return cjson.decode_max_depth()"))
                .isEqualTo(":1000\r\n");
    }

    /** Range and type errors of the option functions. */
    @Test
    void optionErrorsNameTheArgument() {
        assertThat(lua.eval("return cjson.encode_max_depth(0)"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode_max_depth' (expected integer between 1 and 2147483647)" + at("return cjson.encode_max_depth(0)", 1));
        assertThat(lua.eval("return cjson.encode_max_depth('x')"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode_max_depth' (number expected, got string)" + at("return cjson.encode_max_depth('x')", 1));
        assertThat(lua.eval("return cjson.encode_max_depth(1, 2)"))
                .isEqualTo("-ERR user_script:1: bad argument #2 to 'encode_max_depth' (found too many arguments)" + at("return cjson.encode_max_depth(1, 2)", 1));
        assertThat(lua.eval("return cjson.encode_invalid_numbers('bad')"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode_invalid_numbers' (invalid option 'bad')" + at("return cjson.encode_invalid_numbers('bad')", 1));
        assertThat(lua.eval("return cjson.encode_number_precision(15)"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode_number_precision' (expected integer between 1 and 14)" + at("return cjson.encode_number_precision(15)", 1));
        assertThat(lua.eval("return {cjson.encode_sparse_array(nil, -1)}"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'encode_sparse_array' (expected integer between 0 and 2147483647)" + at("return {cjson.encode_sparse_array(nil, -1)}", 1));
    }

    /** Objects, arrays, escapes including surrogate pairs, null as cjson.null. */
    @Test
    void decodeBuildsTablesAndNull() {
        assertThat(lua.eval("return cjson.decode('[1, 2, 3]')"))
                .isEqualTo("*3\r\n:1\r\n:2\r\n:3\r\n");
        assertThat(lua.eval("return cjson.decode('{\"a\": [1, {\"b\": null}]}').a[2].b == cjson.null"))
                .isEqualTo(":1\r\n");
        assertThat(lua.eval("return cjson.decode('\"a\\\\/b\\\\u0041\\\\u00e9\\\\u20ac\\\\ud83d\\\\ude00\"')"))
                .isEqualTo("$13\r\na/bA\u00c3\u00a9\u00e2\u0082\u00ac\u00f0\u009f\u0098\u0080\r\n");
        assertThat(lua.eval("return cjson.encode(cjson.decode('{\"a\":1,\"b\":[true,false,null],\"c\":\"x\"}'))"))
                .isEqualTo("$37\r\n{\"a\":1,\"c\":\"x\",\"b\":[true,false,null]}\r\n");
    }

    /** Hex, inf and nan are numbers while decode_invalid_numbers is on. */
    @Test
    void decodeReadsNumbersAsStrtodDoes() {
        assertThat(lua.eval("return {tostring(cjson.decode('1e400')), tostring(cjson.decode('0x10')), tostring(cjson.decode('+5')), tostring(cjson.decode('-Infinity')), tostring(cjson.decode('007')), tostring(cjson.decode('1.')), tostring(cjson.decode('0.1'))}"))
                .isEqualTo("*7\r\n$3\r\ninf\r\n$2\r\n16\r\n$1\r\n5\r\n$4\r\n-inf\r\n$1\r\n7\r\n$1\r\n1\r\n$3\r\n0.1\r\n");
        assertThat(lua.eval("return cjson.decode_invalid_numbers(false)"))
                .isEqualTo("$-1\r\n");
        assertThat(lua.eval("return cjson.decode('0x10')"))
                .isEqualTo("-ERR user_script:1: Expected value but found invalid number at character 1" + at("return cjson.decode('0x10')", 1));
        assertThat(lua.eval("return cjson.decode('NaN')"))
                .isEqualTo("-ERR user_script:1: Expected value but found invalid token at character 1" + at("return cjson.decode('NaN')", 1));
        assertThat(lua.eval("return cjson.decode_invalid_numbers(true)"))
                .isEqualTo(":1\r\n");
    }

    /** Expected ... but found ... at character n, 1-based. */
    @Test
    void decodeErrorsGiveTheCharacter() {
        assertThat(lua.eval("return cjson.decode('')"))
                .isEqualTo("-ERR user_script:1: Expected value but found T_END at character 1" + at("return cjson.decode('')", 1));
        assertThat(lua.eval("return cjson.decode('[1,]')"))
                .isEqualTo("-ERR user_script:1: Expected value but found T_ARR_END at character 4" + at("return cjson.decode('[1,]')", 1));
        assertThat(lua.eval("return cjson.decode('{\"a\" 1}')"))
                .isEqualTo("-ERR user_script:1: Expected colon but found T_NUMBER at character 6" + at("return cjson.decode('{\"a\" 1}')", 1));
        assertThat(lua.eval("return cjson.decode('[1] x')"))
                .isEqualTo("-ERR user_script:1: Expected the end but found invalid token at character 5" + at("return cjson.decode('[1] x')", 1));
        assertThat(lua.eval("return cjson.decode('\"abc')"))
                .isEqualTo("-ERR user_script:1: Expected value but found unexpected end of string at character 5" + at("return cjson.decode('\"abc')", 1));
        assertThat(lua.eval("return cjson.decode('\"\\\\ud83d\"')"))
                .isEqualTo("-ERR user_script:1: Expected value but found invalid unicode escape code at character 2" + at("return cjson.decode('\"\\\\ud83d\"')", 1));
        assertThat(lua.eval("return cjson.decode('\"\\\\x\"')"))
                .isEqualTo("-ERR user_script:1: Expected value but found invalid escape code at character 2" + at("return cjson.decode('\"\\\\x\"')", 1));
        assertThat(lua.eval("return cjson.decode('-')"))
                .isEqualTo("-ERR user_script:1: Expected value but found invalid number at character 1" + at("return cjson.decode('-')", 1));
        assertThat(lua.eval("return cjson.decode('\\0[')"))
                .isEqualTo("-ERR user_script:1: JSON parser does not support UTF-16 or UTF-32" + at("return cjson.decode('\\0[')", 1));
        assertThat(lua.eval("return cjson.decode('[1]\\0garbage')[1]"))
                .isEqualTo(":1\r\n");
        assertThat(lua.eval("return cjson.decode(string.rep('[', 1001))"))
                .isEqualTo("-ERR user_script:1: Found too many nested data structures (1001) at character 1001" + at("return cjson.decode(string.rep('[', 1001))", 1));
        assertThat(lua.eval("return cjson.decode({})"))
                .isEqualTo("-ERR user_script:1: bad argument #1 to 'decode' (string expected, got table)" + at("return cjson.decode({})", 1));
    }

    /** Entered as a C function: a tail call keeps the script frame; under pcall the position is gone, as a C caller has none. */
    @Test
    void aTailCallKeepsTheScriptsLine() {
        assertThat(lua.eval("local x = 1\nreturn cjson.decode('[')"))
                .isEqualTo("-ERR user_script:2: Expected value but found T_END at character 2" + at("local x = 1\nreturn cjson.decode('[')", 2));
        assertThat(lua.eval("local ok, e = pcall(cjson.decode, '[') return e"))
                .isEqualTo("$45\r\nExpected value but found T_END at character 2\r\n");
    }
}
