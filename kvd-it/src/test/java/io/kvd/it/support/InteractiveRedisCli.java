package io.kvd.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * redis-cli in interactive mode, on a terminal: only with a terminal on stdin does it fetch
 * COMMAND DOCS at start (for its help and hints) and draw hints while a line is typed. util-linux's
 * {@code script} provides the pseudo-terminal, sized so that no line wraps.
 *
 * <p>A line is typed only once the prompt is shown: linenoise flushes unread input whenever it
 * enters raw mode for a new line, so typing ahead would lose it.
 */
public final class InteractiveRedisCli implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** Colors, cursor moves and line clears of linenoise and of redis-cli's help. */
    private static final Pattern TERMINAL_CONTROL = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");

    private final Process process;
    private final InputStream out;
    private final OutputStream in;
    private final String prompt;
    /** Bytes received, decoded afresh as a whole so that a character split across reads stays whole. */
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private String transcript = "";
    private String beforeFirstPrompt;

    private InteractiveRedisCli(Process process, int port) {
        this.process = process;
        this.out = process.getInputStream();
        this.in = process.getOutputStream();
        this.prompt = "127.0.0.1:" + port + "> ";
    }

    /** Starts {@code redis-cli -p port} on a 200-column terminal and waits for its first prompt. */
    public static InteractiveRedisCli start(int port) {
        Path script = Tools.require("script");
        Path redisCli = Tools.require("redis-cli");
        String command = "stty cols 200 rows 50; exec " + redisCli + " -p " + port;
        Process process;
        try {
            process = new ProcessBuilder(List.of(script.toString(), "-qfec", command, "/dev/null"))
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start redis-cli under script", e);
        }
        InteractiveRedisCli cli = new InteractiveRedisCli(process, port);
        try {
            int promptAt = cli.waitFor(0, "redis-cli's first prompt", () -> cli.transcript.indexOf(cli.prompt));
            cli.beforeFirstPrompt = cli.transcript.substring(0, promptAt);
            return cli;
        } catch (RuntimeException | AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /** What redis-cli printed before its first prompt; empty when it started cleanly. */
    public String beforeFirstPrompt() {
        return beforeFirstPrompt;
    }

    /** A line typed as a user would: the hint redis-cli showed after it, and the output that followed. */
    public record Typed(String hint, String output) {
    }

    /**
     * Types {@code line} and Enter; returns the hint drawn after the complete line (before Enter
     * erased it) and what redis-cli printed before the next prompt, terminal controls removed.
     */
    public Typed type(String line) {
        int start = transcript.length();
        send(line + "\r");
        String nextPrompt = "\n" + prompt;
        int end = waitFor(start, "redis-cli's prompt after '" + line + "'", () -> transcript.indexOf(nextPrompt, start));
        String shown = transcript.substring(start, end + 1);
        int enter = shown.indexOf('\n');
        return new Typed(hintAfter(line, shown.substring(0, enter)), plain(shown.substring(enter + 1)));
    }

    /**
     * linenoise redraws prompt and line after every key: the typed text, then the hint in color,
     * then a carriage return. The first redraw of the whole line shows its hint.
     */
    private String hintAfter(String line, String redraws) {
        for (String redraw : redraws.split(Pattern.quote(prompt))) {
            int typedEnd = 0;
            while (typedEnd < redraw.length() && redraw.charAt(typedEnd) != '\u001B' && redraw.charAt(typedEnd) != '\r') {
                typedEnd++;
            }
            if (redraw.substring(0, typedEnd).equals(line)) {
                return plain(redraw.substring(typedEnd)).replace("\r", "");
            }
        }
        throw new AssertionError("redis-cli never showed the whole line '" + line + "'; it showed: " + redraws);
    }

    /** Types {@code quit} and requires redis-cli to exit with code 0. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                send("quit\r");
            }
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("redis-cli still running after quit; killed. Transcript:\n" + transcript);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError("redis-cli exited with code " + process.exitValue() + ". Transcript:\n" + transcript);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping redis-cli", e);
        } finally {
            process.destroyForcibly();
        }
    }

    private void send(String keys) {
        try {
            in.write(keys.getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("redis-cli stopped reading; transcript:\n" + transcript, e);
        }
    }

    /** Reads what redis-cli writes until {@code found} returns an index at or after {@code from}. */
    private int waitFor(int from, String what, IntSupplier found) {
        try {
            return Poll.until(TIMEOUT, what, () -> {
                readAvailable();
                int index = found.getAsInt();
                if (index >= from) {
                    return index;
                }
                if (!process.isAlive()) {
                    readAvailable();
                    throw new AssertionError("redis-cli exited with code " + process.exitValue());
                }
                return null;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (waiting for " + what + "); transcript:\n" + transcript, e);
        }
    }

    private void readAvailable() {
        try {
            int n = out.available();
            if (n > 0) {
                received.write(out.readNBytes(n));
                transcript = received.toString(StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Text as a user reads it: no terminal controls, and a line end as {@code \n}. */
    private static String plain(String text) {
        return TERMINAL_CONTROL.matcher(text).replaceAll("").replaceAll("\r+\n", "\n");
    }
}
