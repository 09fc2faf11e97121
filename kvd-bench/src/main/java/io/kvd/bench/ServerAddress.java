package io.kvd.bench;

/** A server kvbench connects to, written {@code host:port}. */
record ServerAddress(String host, int port) {

    /** {@code host:port}; the host may itself hold colons (IPv6), the port follows the last one. */
    static ServerAddress parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no port number");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("'" + text + "': the port must be in 1..65535");
        }
        return new ServerAddress(text.substring(0, colon), port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
