package io.kvd.bench;

import java.io.IOException;
import java.util.List;

/**
 * The servers a run connects to and how keys are spread over them. {@code -h}/{@code -p} and
 * {@code --servers} name the servers and shard by key number; {@code --cluster} names one node, and the
 * masters and the slot map come from its CLUSTER SLOTS.
 */
record Shards(List<ServerAddress> servers, KeyRouter router) {

    static Shards of(BenchSettings settings) throws IOException {
        if (settings.cluster() != null) {
            SlotMap slots = SlotMap.discover(settings.cluster());
            return new Shards(slots.masters(), slots);
        }
        return new Shards(settings.servers(), KeyRouter.modulo(settings.servers().size()));
    }
}
