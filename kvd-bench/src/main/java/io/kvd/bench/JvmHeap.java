package io.kvd.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a local JVM's heap holds live, asked with this JVM's jcmd: a full collection
 * ({@code GC.run}), then {@code GC.heap_info}'s "used". For kvd's structures that its used_memory
 * does not count.
 */
final class JvmHeap {
    /** GC.heap_info's first line, e.g. " garbage-first heap   total 262144K, used 23456K [0x...". */
    private static final Pattern USED = Pattern.compile("total \\d+K, used (\\d+)K");
    private static final long TIMEOUT_SECONDS = 60;

    private JvmHeap() {
    }

    /** @throws IOException when jcmd fails or says nothing this understands */
    static long liveBytes(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String info = jcmd(pid, "GC.heap_info");
        Matcher used = USED.matcher(info);
        if (!used.find()) {
            throw new IOException("jcmd " + pid + " GC.heap_info said: " + info.strip());
        }
        return Long.parseLong(used.group(1)) * 1024;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        Process process = new ProcessBuilder(List.of(jcmd, String.valueOf(pid), command)).redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("jcmd " + pid + " " + command + " failed: " + output.strip());
        }
        return output;
    }
}
