package io.kvd.server.keyspec;

import java.util.Set;

/**
 * One key of a request, as Redis's keyReference: its position in the arguments and how the
 * command uses it (empty where Redis's getkeys function leaves the flags at 0).
 */
public record KeyReference(int position, Set<KeyFlag> flags) {
}
