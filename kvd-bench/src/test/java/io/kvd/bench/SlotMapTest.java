package io.kvd.bench;

import io.kvd.codec.RespReply;
import io.kvd.codec.RespReply.Array;
import io.kvd.codec.RespReply.BulkString;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlotMapTest {
    private static final ServerAddress ASKED = new ServerAddress("10.0.0.9", 7000);

    @Test
    void eachSlotGoesToTheMasterOfItsRangeAndReplicasAreIgnored() throws IOException {
        SlotMap map = SlotMap.parse(Array.of(
                range(0, 5460, node("127.0.0.1", 7001), node("127.0.0.1", 7101)),
                range(10923, 16383, node("127.0.0.1", 7003)),
                range(5461, 10922, node("127.0.0.1", 7002))), ASKED);

        assertThat(map.masters()).containsExactly(new ServerAddress("127.0.0.1", 7001),
                new ServerAddress("127.0.0.1", 7003), new ServerAddress("127.0.0.1", 7002));
        assertThat(map.masterOf(0)).isZero();
        assertThat(map.masterOf(5460)).isZero();
        assertThat(map.masterOf(5461)).isEqualTo(2);
        assertThat(map.masterOf(10923)).isEqualTo(1);
        assertThat(map.masterOf(16383)).isEqualTo(1);
    }

    @Test
    void aMasterWithSeveralRangesIsOneServer() throws IOException {
        SlotMap map = SlotMap.parse(Array.of(
                range(0, 99, node("127.0.0.1", 7001)),
                range(100, 16282, node("127.0.0.1", 7002)),
                range(16283, 16383, node("127.0.0.1", 7001))), ASKED);

        assertThat(map.masters()).hasSize(2);
        assertThat(map.masterOf(16383)).isZero();
    }

    @Test
    void anUnknownHostIsTheAskedNodesHost() throws IOException {
        SlotMap map = SlotMap.parse(Array.of(range(0, 16383, node("?", 7001))), ASKED);

        assertThat(map.masters()).containsExactly(new ServerAddress("10.0.0.9", 7001));
    }

    @Test
    void aSlotWithoutAMasterIsRefusedNamingIt() {
        assertThatThrownBy(() -> SlotMap.parse(Array.of(range(0, 16000, node("127.0.0.1", 7001))), ASKED))
                .isInstanceOf(IOException.class)
                .hasMessage("the cluster of 10.0.0.9:7000 serves no slot 16001 (CLUSTER SLOTS)");
    }

    @Test
    void anErrorReplyIsRefusedQuotingIt() {
        assertThatThrownBy(() -> SlotMap.parse(new RespReply.Error("ERR This instance has cluster support disabled"), ASKED))
                .isInstanceOf(IOException.class)
                .hasMessage("CLUSTER SLOTS on 10.0.0.9:7000 answered -ERR This instance has cluster support disabled");
    }

    @Test
    void theTemplatesKeyIsRoutedByItsSlot() throws IOException {
        SlotMap map = SlotMap.parse(Array.of(
                range(0, 8191, node("127.0.0.1", 7001)),
                range(8192, 16383, node("127.0.0.1", 7002))), ASKED);
        RequestTemplate get = Workload.GET.templates(3, false)[0];

        // redis-server 7.0's CLUSTER KEYSLOT: key:000000000003 is 670, key:000000000004 is 12921.
        assertThat(map.serverOf(get, 3)).isZero();
        assertThat(map.serverOf(get, 4)).isEqualTo(1);
    }

    private static RespReply range(long first, long last, RespReply... nodes) {
        RespReply[] fields = new RespReply[2 + nodes.length];
        fields[0] = new RespReply.Integer(first);
        fields[1] = new RespReply.Integer(last);
        System.arraycopy(nodes, 0, fields, 2, nodes.length);
        return Array.of(fields);
    }

    private static RespReply node(String host, int port) {
        return Array.of(BulkString.of(host), new RespReply.Integer(port), BulkString.of("id-" + port));
    }
}
