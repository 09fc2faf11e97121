package io.kvd.server.acl;

import io.kvd.server.config.Directive;
import io.kvd.server.keyspec.KeyFlag;
import io.kvd.server.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * One ACL user (Redis's user struct): on or off, its password hashes or nopass, and its
 * selectors, the root one first. Clients hold the object, so changing a user in place (ACL
 * SETUSER) changes what its authenticated clients may do.
 */
public final class User {
    private static final String[] FLAG_NAMES = {"on", "off", "nopass", "skip-sanitize-payload", "sanitize-payload"};

    private final String name;
    private boolean enabled;
    private boolean nopass;
    /** skip-sanitize-payload or sanitize-payload, as set (neither until one is). */
    private Boolean skipSanitizePayload;
    private final List<String> passwords = new ArrayList<>();
    private static final byte[] EVERY_KEY = {'*'};
    private static final Set<KeyFlag> ACCESS = EnumSet.of(KeyFlag.ACCESS);
    private final List<Selector> selectors = new ArrayList<>();
    private final AclCommands commands;
    private final AccessControl acl;

    User(String name, AclCommands commands, AccessControl acl) {
        this.name = name;
        this.commands = commands;
        this.acl = acl;
        selectors.add(new Selector(commands, true, acl.allChannelsByDefault()));
    }

    /** The name, as given (Latin-1: one char per byte). */
    public String name() {
        return name;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public boolean isNopass() {
        return nopass;
    }

    List<Selector> selectors() {
        return selectors;
    }

    Selector root() {
        return selectors.get(0);
    }

    /** Whether this user may run anything on any key and channel (the default user as created): no checks needed. */
    public boolean allowsEverything() {
        Selector root = root();
        return root.allCommands && root.allKeys && root.allChannels;
    }

    /**
     * Redis's ACLUserCheckKeyPerm(user, "*", CMD_KEY_ACCESS), which SORT asks before BY and GET
     * patterns: whether some selector lets this user read every key.
     */
    public boolean mayReadEveryKey() {
        for (Selector selector : selectors) {
            if (selector.allowsKey(EVERY_KEY, ACCESS)) {
                return true;
            }
        }
        return false;
    }

    /** A detached copy (Redis's ACLCreateUnlinkedUser then ACLCopyUser), to stage rules on. */
    User copy(String newName) {
        User copy = new User(newName, commands, acl);
        copy.copyFrom(this);
        return copy;
    }

    /** Redis's ACLCopyUser: the rules of {@code source}, the name kept. */
    void copyFrom(User source) {
        enabled = source.enabled;
        nopass = source.nopass;
        skipSanitizePayload = source.skipSanitizePayload;
        passwords.clear();
        passwords.addAll(source.passwords);
        selectors.clear();
        source.selectors.forEach(s -> selectors.add(s.copy()));
    }

    /**
     * Redis's ACLSetUser: applies one rule, or throws with Redis's reason. An empty rule does
     * nothing. Words are compared up to a NUL, as Redis's strcasecmp; passwords, hashes and
     * selectors are taken whole, as Redis takes them by length.
     */
    void apply(String op) {
        if (op.isEmpty()) {
            return;
        }
        String word = Latin1.cString(op);
        if (word.equalsIgnoreCase("on")) {
            enabled = true;
        } else if (word.equalsIgnoreCase("off")) {
            enabled = false;
        } else if (word.equalsIgnoreCase("skip-sanitize-payload")) {
            skipSanitizePayload = true;
        } else if (word.equalsIgnoreCase("sanitize-payload")) {
            skipSanitizePayload = false;
        } else if (word.equalsIgnoreCase("nopass")) {
            nopass = true;
            passwords.clear();
        } else if (word.equalsIgnoreCase("resetpass")) {
            nopass = false;
            passwords.clear();
        } else if (op.charAt(0) == '>' || op.charAt(0) == '#') {
            String hash = op.charAt(0) == '>' ? hash(op.substring(1).getBytes(StandardCharsets.ISO_8859_1))
                    : checkedHash(op.substring(1));
            if (!passwords.contains(hash)) {
                passwords.add(hash);
            }
            nopass = false;
        } else if (op.charAt(0) == '<' || op.charAt(0) == '!') {
            String hash = op.charAt(0) == '<' ? hash(op.substring(1).getBytes(StandardCharsets.ISO_8859_1))
                    : checkedHash(op.substring(1));
            if (!passwords.remove(hash)) {
                throw new AclException(AclException.NO_SUCH_PASSWORD);
            }
        } else if (op.charAt(0) == '(' && op.charAt(op.length() - 1) == ')') {
            Selector selector = new Selector(commands, false, acl.allChannelsByDefault());
            // As Redis's sdssplitargs there, which reads a C string: unbalanced quotes give no
            // rules, an empty selector.
            List<String> ops = Directive.split(Latin1.cString(op.substring(1, op.length() - 1)),
                    StandardCharsets.ISO_8859_1);
            if (ops != null) {
                ops.forEach(selector::apply);
            }
            selectors.add(selector);
        } else if (word.equalsIgnoreCase("clearselectors")) {
            selectors.subList(1, selectors.size()).clear();
        } else if (word.equalsIgnoreCase("reset")) {
            apply("resetpass");
            apply("resetkeys");
            apply("resetchannels");
            if (acl.allChannelsByDefault()) {
                apply("allchannels");
            }
            apply("off");
            apply("sanitize-payload");
            apply("clearselectors");
            apply("-@all");
        } else {
            root().apply(op);
        }
    }

    private static String checkedHash(String hash) {
        if (hash.length() != 64 || !hash.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
            throw new AclException(AclException.BAD_HASH);
        }
        return hash;
    }

    /** SHA-256 of a password in lower-case hex, as Redis stores and shows it. */
    static String hash(byte[] password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Redis's ACLCheckUserCredentials for an existing user: on, and nopass or one of its hashes
     * equal to the password's, compared in time independent of where they differ.
     */
    boolean acceptsPassword(byte[] password) {
        if (!enabled) {
            return false;
        }
        if (nopass) {
            return true;
        }
        byte[] hashed = hash(password).getBytes(StandardCharsets.US_ASCII);
        boolean matched = false;
        for (String stored : passwords) {
            matched |= MessageDigest.isEqual(hashed, stored.getBytes(StandardCharsets.US_ASCII));
        }
        return matched;
    }

    /** The flags as ACL GETUSER lists them, in Redis's order. */
    List<String> flags() {
        List<String> flags = new ArrayList<>();
        boolean[] set = {enabled, !enabled, nopass, Boolean.TRUE.equals(skipSanitizePayload),
                Boolean.FALSE.equals(skipSanitizePayload)};
        for (int i = 0; i < FLAG_NAMES.length; i++) {
            if (set[i]) {
                flags.add(FLAG_NAMES[i]);
            }
        }
        return flags;
    }

    /**
     * ACL GETUSER's map: flags, password hashes, the root selector's commands, keys and channels,
     * then every other selector as a map of the same three.
     */
    public void writeTo(Reply reply) {
        reply.mapHeader(6);
        reply.bulk("flags");
        List<String> flags = flags();
        reply.setHeader(flags.size());
        flags.forEach(reply::bulk);
        reply.bulk("passwords");
        reply.arrayHeader(passwords.size());
        passwords.forEach(reply::bulk);
        writeSelector(reply, root());
        reply.bulk("selectors");
        reply.arrayHeader(selectors.size() - 1);
        for (Selector selector : selectors.subList(1, selectors.size())) {
            reply.mapHeader(3);
            writeSelector(reply, selector);
        }
    }

    private static void writeSelector(Reply reply, Selector selector) {
        reply.bulk("commands");
        reply.bulk(Latin1.bytes(selector.describeCommands()));
        reply.bulk("keys");
        reply.bulk(Latin1.bytes(selector.describeKeys()));
        reply.bulk("channels");
        reply.bulk(Latin1.bytes(selector.describeChannels()));
    }

    /**
     * Redis's ACLDescribeUser: flags, password hashes, the root selector's rules, then each
     * selector in parentheses.
     */
    String describe() {
        StringBuilder out = new StringBuilder();
        flags().forEach(f -> out.append(f).append(' '));
        passwords.forEach(p -> out.append('#').append(p).append(' '));
        for (Selector selector : selectors) {
            if (selector.root) {
                out.append(selector.describe());
            } else {
                out.append(" (").append(selector.describe()).append(')');
            }
        }
        return out.toString();
    }
}
