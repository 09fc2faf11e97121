package io.kvd.server.scripting;

import io.kvd.server.command.CommandFixture;

import java.nio.charset.StandardCharsets;

/** Runs scripts for the Lua library tests: each reply as ISO-8859-1 text, one character per byte. */
final class ScriptFixture {
    private final CommandFixture kvd = new CommandFixture();

    /** EVAL script 0 */
    String eval(String script) {
        return new String(kvd.callRaw("EVAL", script, "0"), StandardCharsets.ISO_8859_1);
    }

    /** Redis's suffix of an error raised inside a script: its sha1 and the script's line. */
    static String at(String script, int line) {
        return " script: " + LuaScripts.sha1hex(script.getBytes(StandardCharsets.UTF_8)) + ", on @user_script:" + line + ".\r\n";
    }

    /** Drops the interpreter, as SCRIPT FLUSH does. */
    void close() {
        LuaEngines.of(kvd.server).scripts().flush();
    }
}
