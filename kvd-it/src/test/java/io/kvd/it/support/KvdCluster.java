package io.kvd.it.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Three kvd processes forming a static Redis Cluster, for all the tests of a class:
 * {@code @RegisterExtension static final KvdCluster cluster = new KvdCluster();}. The slots are
 * split as {@code redis-cli --cluster create} splits them (0-5460, 5461-10922, 10923-16383).
 * The slot map names every port, so the ports are chosen (free ones) before the nodes start.
 */
public final class KvdCluster implements BeforeAllCallback, AfterAllCallback {
    public static final String[] RANGES = {"0-5460", "5461-10922", "10923-16383"};
    /** Another program may take a port between choosing it and kvd binding it: then the whole cluster is retried. */
    private static final int ATTEMPTS = 3;

    private final List<KvdProcess> nodes = new ArrayList<>();

    @Override
    public void beforeAll(ExtensionContext context) {
        for (int attempt = 1; nodes.isEmpty(); attempt++) {
            try {
                start();
            } catch (AssertionError e) {
                nodes.forEach(KvdProcess::kill);
                nodes.clear();
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        nodes.forEach(KvdProcess::close);
    }

    /** The node's port, 0 to 2 in the slot map's order. */
    public int port(int node) {
        return nodes.get(node).port();
    }

    public int size() {
        return nodes.size();
    }

    private void start() {
        int[] ports = freePorts(RANGES.length);
        Path dir = WorkDir.create("kvd-cluster");
        StringBuilder slotMap = new StringBuilder();
        for (int i = 0; i < ports.length; i++) {
            slotMap.append("node kvd-").append(i + 1).append(" 127.0.0.1:").append(ports[i]).append(' ')
                    .append(RANGES[i]).append('\n');
        }
        Path file = dir.resolve("cluster.conf");
        try {
            Files.writeString(file, slotMap);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int port : ports) {
            Path nodeDir = dir.resolve(String.valueOf(port));
            try {
                Files.createDirectories(nodeDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            nodes.add(KvdProcess.startIn(nodeDir, "--port", String.valueOf(port), "--cluster-enabled", "yes",
                    "--cluster-config-file", file.toString()));
        }
    }

    /** Ports free on loopback now, all held open together so they differ. */
    private static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // Closing a listening socket that was never used has nothing to report.
                }
            }
        }
    }
}
