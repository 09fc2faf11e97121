package io.kvd.server.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterConfigFileTest {
    private static final String FILE = "cluster.conf";
    private static final List<String> LOOPBACK = List.of("127.0.0.1");
    /** Redis's usual split of three masters, as redis-cli --cluster create makes it. */
    private static final List<String> THREE_NODES = List.of(
            "node a 127.0.0.1:7001 0-5460",
            "node b 127.0.0.1:7002 5461-10922",
            "node c 127.0.0.1:7003 10923-16383");

    private static ClusterTopology parse(List<String> lines, int port) throws ClusterConfigException {
        return ClusterConfigFile.parse(FILE, lines, port, LOOPBACK);
    }

    private static List<String> withLine(String line) {
        return List.of(THREE_NODES.get(0), THREE_NODES.get(1), THREE_NODES.get(2), line);
    }

    @Test
    void everyNodeWithItsAddressAndEpochInFileOrder() throws Exception {
        ClusterTopology topology = parse(THREE_NODES, 7002);
        assertThat(topology.nodes()).extracting(ClusterNode::address)
                .containsExactly("127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003");
        assertThat(topology.nodes()).extracting(ClusterNode::epoch).containsExactly(1, 2, 3);
    }

    @Test
    void thisServerIsTheNodeAtItsPortOnOneOfItsAddresses() throws Exception {
        ClusterTopology topology = parse(THREE_NODES, 7002);
        assertThat(topology.myself().address()).isEqualTo("127.0.0.1:7002");
        assertThat(topology.ownsSlot(5461)).isTrue();
        assertThat(topology.ownsSlot(5460)).isFalse();
        assertThat(topology.ownsSlot(10923)).isFalse();
    }

    @Test
    void aShortNameStandsForTheSha1OfIt() throws Exception {
        assertThat(parse(THREE_NODES, 7001).myself().id()).isEqualTo("86f7e437faa5a7fce15d1ddcb9eaeaea377667b8");
    }

    @Test
    void aFortyHexDigitIdIsRedisNodeIdLowerCased() throws Exception {
        List<String> lines = List.of("node 0123456789ABCDEF0123456789abcdef01234567 127.0.0.1:7001 0-16383");
        assertThat(parse(lines, 7001).myself().id()).isEqualTo("0123456789abcdef0123456789abcdef01234567");
    }

    @Test
    void singleSlotsAndAdjacentRangesMergeIntoOneRun() throws Exception {
        ClusterTopology topology = parse(List.of(
                "node a 127.0.0.1:7001 0-99 100 101-8191",
                "node b 127.0.0.1:7002 8192-16383"), 7001);
        assertThat(topology.rangesOf(topology.myself()))
                .containsExactly(new ClusterTopology.SlotRange(0, 8191, topology.myself()));
    }

    @Test
    void rangesListEveryRunInSlotOrder() throws Exception {
        ClusterTopology topology = parse(List.of(
                "node a 127.0.0.1:7001 0-99 200-16383",
                "node b 127.0.0.1:7002 100-199"), 7001);
        assertThat(topology.ranges()).extracting(r -> r.first() + "-" + r.last() + "@" + r.owner().port())
                .containsExactly("0-99@7001", "100-199@7002", "200-16383@7001");
    }

    @Test
    void commentsAndBlankLinesAreSkipped() throws Exception {
        List<String> lines = List.of("# three nodes", "", "  " + THREE_NODES.get(0), THREE_NODES.get(1),
                "   ", THREE_NODES.get(2));
        assertThat(parse(lines, 7003).nodes()).hasSize(3);
    }

    @Test
    void theAnnouncedAddressFindsThisServerWhereTheBindAddressDoesNot() throws Exception {
        List<String> lines = List.of("node a 10.0.0.1:6379 0-8191", "node b 10.0.0.2:6379 8192-16383");
        ClusterTopology topology = ClusterConfigFile.parse(FILE, lines, 6379, List.of("10.0.0.2"));
        assertThat(topology.myself().host()).isEqualTo("10.0.0.2");
    }

    @Test
    void aSlotAssignedTwiceNamesBothLines() {
        assertThatThrownBy(() -> parse(withLine("node d 127.0.0.1:7004 5000-5001"), 7001))
                .isInstanceOf(ClusterConfigException.class)
                .hasMessage("cluster.conf:4: slot 5000 is already assigned at line 1");
    }

    @Test
    void unassignedSlotsAreListedAsRanges() {
        List<String> lines = List.of("node a 127.0.0.1:7001 0-99 101-16382");
        assertThatThrownBy(() -> parse(lines, 7001))
                .hasMessage("cluster.conf: slots 100 16383 are not assigned to any node");
    }

    @Test
    void anEmptyFileLeavesEverySlotUnassigned() {
        assertThatThrownBy(() -> parse(List.of("# nothing"), 7001))
                .hasMessage("cluster.conf: slots 0-16383 are not assigned to any node");
    }

    @Test
    void aLineThatIsNotANodeShowsTheExpectedForm() {
        assertThatThrownBy(() -> parse(withLine("nodes d 127.0.0.1:7004"), 7001))
                .hasMessage("cluster.conf:4: expected 'node <id> <host>:<port> [<slot>|<first>-<last> ...]'");
    }

    @Test
    void anAddressWithoutPortIsRefused() {
        assertThatThrownBy(() -> parse(withLine("node d 127.0.0.1"), 7001))
                .hasMessage("cluster.conf:4: '127.0.0.1' is not <host>:<port>");
    }

    @Test
    void aPortOutOfRangeIsRefused() {
        assertThatThrownBy(() -> parse(withLine("node d 127.0.0.1:65536"), 7001))
                .hasMessage("cluster.conf:4: '127.0.0.1:65536' is not <host>:<port>");
    }

    @Test
    void aSlotPastTheLastIsRefused() {
        assertThatThrownBy(() -> parse(List.of("node a 127.0.0.1:7001 0-16384"), 7001))
                .hasMessage("cluster.conf:1: slot range '0-16384' is not <slot> or <first>-<last> with 0 <= first <= last <= 16383");
    }

    @Test
    void aReversedRangeIsRefused() {
        assertThatThrownBy(() -> parse(List.of("node a 127.0.0.1:7001 10-9"), 7001))
                .hasMessage("cluster.conf:1: slot range '10-9' is not <slot> or <first>-<last> with 0 <= first <= last <= 16383");
    }

    @Test
    void aNodeIdUsedTwiceNamesTheFirstLine() {
        assertThatThrownBy(() -> parse(withLine("node b 127.0.0.1:7004"), 7001))
                .hasMessage("cluster.conf:4: node id b is already used at line 2");
    }

    @Test
    void anAddressUsedTwiceNamesTheFirstLine() {
        assertThatThrownBy(() -> parse(withLine("node d 127.0.0.1:7003"), 7001))
                .hasMessage("cluster.conf:4: address 127.0.0.1:7003 is already used at line 3");
    }

    @Test
    void aNodeIdWithOtherCharactersIsRefused() {
        assertThatThrownBy(() -> parse(withLine("node d/e 127.0.0.1:7004"), 7001))
                .hasMessage("cluster.conf:4: node id 'd/e' is neither 40 hex digits nor a name of letters, digits, '.', '_', '-'");
    }

    @Test
    void aServerMissingFromTheFileIsToldHowToNameItself() {
        assertThatThrownBy(() -> parse(THREE_NODES, 7004))
                .hasMessage("cluster.conf: no node is this server (port 7004 on 127.0.0.1); set cluster-announce-ip to "
                        + "this server's address as the file names it");
    }

    @Test
    void anUnreadableFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("missing.conf");
        assertThatThrownBy(() -> ClusterConfigFile.read(missing, 7001, LOOPBACK))
                .hasMessageStartingWith(missing + ": cannot read the cluster config file: ");
    }

    @Test
    void theShippedSampleIsAValidMapForEachOfItsThreeNodes() throws Exception {
        Path sample = Path.of("..", "config", "cluster.conf");
        for (int port = 7001; port <= 7003; port++) {
            assertThat(ClusterConfigFile.read(sample, port, LOOPBACK).myself().port()).isEqualTo(port);
        }
    }
}
