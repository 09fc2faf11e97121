package io.kvd.it;

import io.kvd.it.support.KvdProcess;
import io.kvd.it.support.Poll;
import io.kvd.it.support.RedisServerProcess;
import io.kvd.it.support.RespConnection;
import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.Tools;
import io.kvd.it.support.WorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CONFIG SET appendonly yes and no at run time, BGREWRITEAOF with the AOF off and
 * aof-disable-auto-gc, run alike on kvd and redis-server 7.0 from an empty directory: after every
 * step the manifest, the files of the AOF directory and the contents after DEBUG LOADAOF are the
 * same. Skipped where redis-server is absent.
 */
@ExtendWith(ServerLogsOnFailure.class)
class AppendonlySwitchDifferentialTest {
    private static final String[] OPTIONS = {"--appendonly", "no", "--enable-debug-command", "yes"};

    @Test
    void switchingTheAofOnAndOffLeavesTheDirectoriesRedisServerLeaves() throws Exception {
        Tools.require("redis-server");
        Path kvdDir = WorkDir.create("kvd-switch");
        Path redisDir = WorkDir.create("redis-switch");
        List<String> kvdSteps;
        List<String> redisSteps;
        try (KvdProcess kvd = KvdProcess.startIn(kvdDir, OPTIONS)) {
            kvdSteps = steps(kvd.port(), kvdDir);
        }
        try (RedisServerProcess redis = RedisServerProcess.startIn(redisDir, OPTIONS)) {
            redisSteps = steps(redis.port(), redisDir);
        }
        assertThat(String.join("\n", kvdSteps)).isEqualTo(String.join("\n", redisSteps));
    }

    /** The scenario; after each step, a line with its manifest, the AOF directory's files and the keys loaded. */
    private static List<String> steps(int port, Path dir) throws Exception {
        List<String> seen = new ArrayList<>();
        try (RespConnection c = RespConnection.open(port)) {
            c.call("SET", "k1", "v1");
            c.call("CONFIG", "SET", "appendonly", "yes");
            awaitRewriteEnd(c);
            c.call("SET", "k2", "v2");
            seen.add("on: " + state(c, dir));

            c.call("CONFIG", "SET", "appendonly", "no");
            c.call("SET", "k3", "v3");
            seen.add("off: " + state(c, dir));

            rewrite(c);
            seen.add("rewritten while off: " + state(c, dir));

            c.call("CONFIG", "SET", "appendonly", "yes");
            awaitRewriteEnd(c);
            c.call("SET", "k4", "v4");
            seen.add("on again: " + state(c, dir));

            c.call("CONFIG", "SET", "aof-disable-auto-gc", "yes");
            rewrite(c);
            rewrite(c);
            seen.add("history kept: " + state(c, dir));

            c.call("CONFIG", "SET", "aof-disable-auto-gc", "no");
            Poll.until(Duration.ofSeconds(30), "the history files to leave the manifest",
                    () -> manifest(dir).contains(" type h") ? null : true);
            seen.add("history collected: " + state(c, dir));
        }
        return seen;
    }

    /**
     * Once the files the manifest no longer names are deleted (both servers delete them in the
     * background): the manifest, the directory's files and the keys DEBUG LOADAOF loads.
     */
    private static String state(RespConnection c, Path dir) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        String manifest = manifest(dir);
        while (!files(dir).equals(named(manifest)) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            manifest = manifest(dir);
        }
        String loaded = c.call("DEBUG", "LOADAOF") + c.call("KEYS", "*");
        return manifest + " " + files(dir) + " " + new TreeSet<>(List.of(loaded.split("\r\n")));
    }

    private static String manifest(Path dir) {
        try {
            return Files.readString(dir.resolve("appendonlydir/appendonly.aof.manifest"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The manifest's file names and the manifest itself, sorted. */
    private static List<String> named(String manifest) {
        TreeSet<String> names = new TreeSet<>();
        names.add("appendonly.aof.manifest");
        for (String line : manifest.split("\n")) {
            names.add(line.split(" ")[1]);
        }
        return List.copyOf(names);
    }

    private static List<String> files(Path dir) {
        try (Stream<Path> listing = Files.list(dir.resolve("appendonlydir"))) {
            return listing.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void rewrite(RespConnection c) throws Exception {
        assertThat(c.call("BGREWRITEAOF")).isEqualTo("+Background append only file rewriting started\r\n");
        awaitRewriteEnd(c);
    }

    private static void awaitRewriteEnd(RespConnection c) throws Exception {
        Poll.until(Duration.ofSeconds(60), "the rewrite to end", () -> {
            String info = AofInteropTest.call(c, "INFO", "persistence");
            return info.contains("aof_rewrite_in_progress:0") && info.contains("aof_rewrite_scheduled:0") ? true : null;
        });
    }
}
