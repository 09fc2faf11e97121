package io.kvd.bench;

/** Which of a run's servers each request goes to: by key number modulo their count, or by cluster slot. */
interface KeyRouter {
    /** The index, in the run's server list, of the server for {@code template}'s request on key {@code keyNumber}. */
    int serverOf(RequestTemplate template, long keyNumber);

    /** {@code --servers}: key number modulo the number of servers (a keyless PING's random number too: any will do). */
    static KeyRouter modulo(int servers) {
        return (template, keyNumber) -> (int) (keyNumber % servers);
    }
}
