package io.kvd.server.cluster;

import io.kvd.codec.KeySlot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the static slot map that every node of a kvd cluster is given (cluster-config-file):
 *
 * <pre>
 * # node &lt;id&gt; &lt;host&gt;:&lt;port&gt; [&lt;slot&gt;|&lt;first&gt;-&lt;last&gt; ...]
 * node a 127.0.0.1:7001 0-5460
 * node b 127.0.0.1:7002 5461-10922
 * node c 127.0.0.1:7003 10923-16383
 * </pre>
 *
 * An id is Redis's 40 hex digits, or a short name that stands for the SHA-1 of it (so every node
 * derives the same id). Every slot must be assigned exactly once, and this server must be one of
 * the nodes: it is the one at its own port on one of its own addresses. Unlike Redis's nodes.conf
 * the file is input only; kvd never writes it.
 */
public final class ClusterConfigFile {
    private static final String NODE_LINE = "'node <id> <host>:<port> [<slot>|<first>-<last> ...]'";
    private static final Pattern HEX_ID = Pattern.compile("[0-9a-fA-F]{40}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private final String file;
    private final List<ClusterNode> nodes = new ArrayList<>();
    private final Map<String, Integer> lineOfId = new HashMap<>();
    private final Map<String, Integer> lineOfAddress = new HashMap<>();
    private final ClusterNode[] owners = new ClusterNode[KeySlot.SLOTS];
    private final int[] lineOfSlot = new int[KeySlot.SLOTS];

    private ClusterConfigFile(String file) {
        this.file = file;
    }

    /**
     * Reads and validates the file.
     *
     * @param port     this server's port
     * @param ownHosts the addresses this server is known by (cluster-announce-ip, else bind)
     * @throws ClusterConfigException naming the file and line of the first problem
     */
    public static ClusterTopology read(Path file, int port, List<String> ownHosts) throws ClusterConfigException {
        try {
            return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8), port, ownHosts);
        } catch (IOException e) {
            throw new ClusterConfigException(file + ": cannot read the cluster config file: " + e.getMessage());
        }
    }

    /** {@link #read} of lines already read; {@code file} names them in errors. */
    static ClusterTopology parse(String file, List<String> lines, int port, List<String> ownHosts)
            throws ClusterConfigException {
        ClusterConfigFile parsed = new ClusterConfigFile(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                parsed.node(i + 1, line.split("\\s+"));
            }
        }
        parsed.requireEverySlotAssigned();
        return new ClusterTopology(parsed.nodes, parsed.myself(port, ownHosts), parsed.owners);
    }

    private void node(int line, String[] words) throws ClusterConfigException {
        if (words.length < 3 || !words[0].equals("node")) {
            throw error(line, "expected " + NODE_LINE);
        }
        String id = nodeId(line, words[1]);
        int colon = words[2].lastIndexOf(':');
        int port = colon > 0 ? portNumber(words[2].substring(colon + 1)) : -1;
        if (port < 0) {
            throw error(line, "'" + words[2] + "' is not <host>:<port>");
        }
        ClusterNode node = new ClusterNode(id, words[2].substring(0, colon), port, nodes.size() + 1);
        requireUnused(lineOfId, id, line, "node id " + words[1]);
        requireUnused(lineOfAddress, node.address(), line, "address " + node.address());
        for (int i = 3; i < words.length; i++) {
            assign(line, words[i], node);
        }
        nodes.add(node);
    }

    private String nodeId(int line, String word) throws ClusterConfigException {
        if (HEX_ID.matcher(word).matches()) {
            return word.toLowerCase(Locale.ROOT);
        }
        if (!NAME.matcher(word).matches()) {
            throw error(line, "node id '" + word + "' is neither 40 hex digits nor a name of letters, digits, '.', '_', '-'");
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(sha1.digest(word.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    private void requireUnused(Map<String, Integer> used, String key, int line, String what) throws ClusterConfigException {
        Integer earlier = used.putIfAbsent(key, line);
        if (earlier != null) {
            throw error(line, what + " is already used at line " + earlier);
        }
    }

    private void assign(int line, String range, ClusterNode node) throws ClusterConfigException {
        int dash = range.indexOf('-');
        int first = slotNumber(dash < 0 ? range : range.substring(0, dash));
        int last = dash < 0 ? first : slotNumber(range.substring(dash + 1));
        if (first < 0 || last < first) {
            throw error(line, "slot range '" + range + "' is not <slot> or <first>-<last> with 0 <= first <= last <= "
                    + (KeySlot.SLOTS - 1));
        }
        for (int slot = first; slot <= last; slot++) {
            if (owners[slot] != null) {
                throw error(line, "slot " + slot + " is already assigned at line " + lineOfSlot[slot]);
            }
            owners[slot] = node;
            lineOfSlot[slot] = line;
        }
    }

    private void requireEverySlotAssigned() throws ClusterConfigException {
        List<String> missing = new ArrayList<>();
        for (int slot = 0; slot < KeySlot.SLOTS; slot++) {
            if (owners[slot] == null) {
                int first = slot;
                while (slot + 1 < KeySlot.SLOTS && owners[slot + 1] == null) {
                    slot++;
                }
                missing.add(first == slot ? String.valueOf(slot) : first + "-" + slot);
            }
        }
        if (!missing.isEmpty()) {
            throw new ClusterConfigException(file + ": slots " + String.join(" ", missing) + " are not assigned to any node");
        }
    }

    private ClusterNode myself(int port, List<String> ownHosts) throws ClusterConfigException {
        for (ClusterNode node : nodes) {
            if (node.port() == port && ownHosts.contains(node.host())) {
                return node;
            }
        }
        throw new ClusterConfigException(file + ": no node is this server (port " + port + " on " + String.join(" or ", ownHosts)
                + "); set cluster-announce-ip to this server's address as the file names it");
    }

    private ClusterConfigException error(int line, String message) {
        return new ClusterConfigException(file + ":" + line + ": " + message);
    }

    /** The port, or -1 unless it is 1..65535. */
    private static int portNumber(String text) {
        int n = decimal(text);
        return n >= 1 && n <= 65535 ? n : -1;
    }

    /** The slot, or -1 unless it is 0..16383. */
    private static int slotNumber(String text) {
        int n = decimal(text);
        return n < KeySlot.SLOTS ? n : -1;
    }

    /** Plain decimal digits (at most 5), or -1. */
    private static int decimal(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Integer.parseInt(text);
    }
}
