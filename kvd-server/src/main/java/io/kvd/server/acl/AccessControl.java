package io.kvd.server.acl;

import io.kvd.server.config.IoErrors;
import io.kvd.server.keyspec.KeyReference;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * Redis 7.0's ACL (acl.c): the users by name, the default user every connection starts as, the
 * permission check the dispatcher runs before each command, the ACL log, and the ACL file. The
 * dispatcher and the ACL command call in; nothing here knows clients or connections.
 */
public final class AccessControl {
    public static final String DEFAULT = "default";

    private final AclCommands commands;
    private final BooleanSupplier allChannelsByDefault;
    /** By name in byte order, as Redis's rax lists them. */
    private TreeMap<String, User> users = new TreeMap<>();
    private final User defaultUser;
    private final AclLog log = new AclLog();

    /**
     * @param commandNames every top-level command, lower case, in table order
     * @param allChannelsByDefault acl-pubsub-default is allchannels, read whenever a selector is made
     */
    public AccessControl(List<String> commandNames, BooleanSupplier allChannelsByDefault) {
        this.commands = new AclCommands(commandNames);
        this.allChannelsByDefault = allChannelsByDefault;
        this.defaultUser = createDefaultUser();
        users.put(DEFAULT, defaultUser);
    }

    /** Redis's ACLCreateDefaultUser: on, nopass, every command, key and channel. */
    private User createDefaultUser() {
        User user = new User(DEFAULT, commands, this);
        for (String op : List.of("+@all", "~*", "&*", "on", "nopass")) {
            user.apply(op);
        }
        return user;
    }

    boolean allChannelsByDefault() {
        return allChannelsByDefault.getAsBoolean();
    }

    public User defaultUser() {
        return defaultUser;
    }

    /** The user named {@code name}, or null. */
    public User user(String name) {
        return users.get(name);
    }

    /** Every user, by name. */
    public Collection<User> users() {
        return users.values();
    }

    public AclLog log() {
        return log;
    }

    /** Redis's authRequired: the default user has a password, or is off; a client must then authenticate. */
    public boolean authRequired() {
        return !defaultUser.isNopass() || !defaultUser.isEnabled();
    }

    /** Redis's ACLCheckUserCredentials: the user, if it exists, is on, and takes the password; else null. */
    public User authenticate(String name, byte[] password) {
        User user = users.get(name);
        return user != null && user.acceptsPassword(password) ? user : null;
    }

    /** Redis's ACLUpdateDefaultUserPassword, for requirepass: that one password, or nopass when empty. */
    public void setDefaultPassword(byte[] password) {
        defaultUser.apply("resetpass");
        defaultUser.apply(password.length > 0 ? ">" + Latin1.text(password) : "nopass");
    }

    /** Who may keep the channels and patterns they are subscribed to after a user changed (Redis's "upcoming" list). */
    public record Channels(List<String> patterns) {
        public boolean allowsChannel(byte[] channel) {
            return Selector.matchesChannel(patterns, channel, false);
        }

        public boolean allowsPattern(byte[] pattern) {
            return Selector.matchesChannel(patterns, pattern, true);
        }
    }

    /**
     * ACL SETUSER: the rules (selectors spread over several words merged first) applied to a copy
     * of the user, or of a new one; if all apply, the user takes them (created if new). Throws
     * with Redis's reply text otherwise, changing nothing. {@code request} is the whole request
     * (ACL SETUSER name rules...), each word Latin-1. Returns the channels the user's subscribers may keep when some
     * were revoked (Redis's ACLKillPubsubClientsIfNeeded), else null.
     */
    public Channels setUser(List<String> request) {
        String name = request.get(2);
        if (Selector.hasSpaces(name)) {
            throw new AclException("ERR Usernames can't contain spaces or null characters");
        }
        List<String> rules = request.subList(3, request.size());
        int unclosed = unclosedSelector(rules);
        if (unclosed >= 0) {
            throw new AclException("ERR Unmatched parenthesis in acl selector starting at '"
                    + Latin1.cString(rules.get(unclosed)) + "'.");
        }
        User existing = users.get(name);
        User staged = existing != null ? existing.copy(name) : new User(name, commands, this);
        for (String rule : mergeSelectors(rules)) {
            try {
                staged.apply(rule);
            } catch (AclException e) {
                throw new AclException("ERR Error in ACL SETUSER modifier '" + Latin1.cString(rule) + "': "
                        + e.getMessage());
            }
        }
        Channels kept = existing == null ? null : revokedChannels(staged, existing);
        if (existing == null) {
            users.put(name, staged);
        } else {
            existing.copyFrom(staged);
        }
        return kept;
    }

    private static boolean opensSelector(String op) {
        return op.startsWith("(") && !op.endsWith(")");
    }

    /** Where the selector left open starts among the rules, or -1 (Redis's invalid_idx). */
    private static int unclosedSelector(List<String> rules) {
        int open = -1;
        for (int i = 0; i < rules.size(); i++) {
            if (opensSelector(rules.get(i))) {
                open = i;
            } else if (open >= 0 && rules.get(i).endsWith(")")) {
                open = -1;
            }
        }
        return open;
    }

    /**
     * Redis's ACLMergeSelectorArguments, for rules with no selector left open: the words from one
     * starting with '(' to one ending with ')' joined by spaces into one rule (a new '(' starts
     * over), each after the first up to a NUL.
     */
    private static List<String> mergeSelectors(List<String> rules) {
        List<String> merged = new ArrayList<>();
        StringBuilder selector = null;
        for (String op : rules) {
            if (opensSelector(op)) {
                selector = new StringBuilder(op);
            } else if (selector != null) {
                // As Redis's sdscatfmt(" %s"): each word after the first as a C string.
                selector.append(' ').append(Latin1.cString(op));
                if (op.endsWith(")")) {
                    merged.add(selector.toString());
                    selector = null;
                }
            } else {
                merged.add(op);
            }
        }
        return merged;
    }

    /**
     * Null when the new rules allow every channel, or every channel pattern of {@code original}
     * (which did not allow every channel) is in them.
     */
    private static Channels revokedChannels(User staged, User original) {
        List<String> upcoming = new ArrayList<>();
        for (Selector s : staged.selectors()) {
            if (s.allChannels) {
                return null;
            }
            upcoming.addAll(s.channels);
        }
        for (Selector s : original.selectors()) {
            // Every channel was allowed: now some are not.
            if (s.allChannels || !upcoming.containsAll(s.channels)) {
                return new Channels(upcoming);
            }
        }
        return null;
    }

    /** ACL DELUSER of one user (never the default user, which the caller refuses): the removed user, or null. */
    public User deleteUser(String name) {
        return users.remove(name);
    }

    /** A refusal: why, and the position in the request of the key or channel refused (0 for a command). */
    public record Denial(AclLog.Reason reason, int index) {
    }

    /** The refusal when no selector allows the command itself; one instance, as it carries no position. */
    private static final Denial COMMAND_DENIED = new Denial(AclLog.Reason.COMMAND, 0);

    /**
     * Redis's ACLCheckAllUserCommandPerm: null if one of the user's selectors allows the command
     * ({@code fullName}, {@code config|get} for a subcommand) with these arguments, its keys by
     * their key-spec flags and its channels; else the refusal to report: a command refusal if no
     * selector allowed the command, otherwise the highest reason and the last position refused.
     */
    public Denial check(User user, String fullName, byte[][] argv) {
        AclCommands.Entry command = commands.lookup(fullName);
        Denial relevant = COMMAND_DENIED;
        List<KeyReference> keys = null;
        for (Selector selector : user.selectors()) {
            if (!selector.allowsCommand(command, argv)) {
                continue;
            }
            Denial denial = null;
            if (!selector.allKeys && command.keys() != null && command.keys().hasKeys()) {
                if (keys == null) {
                    keys = command.keys().find(argv);
                }
                for (KeyReference key : keys) {
                    if (!selector.allowsKey(argv[key.position()], key.flags())) {
                        denial = new Denial(AclLog.Reason.KEY, key.position());
                        break;
                    }
                }
            }
            if (denial == null && !selector.allChannels) {
                denial = checkChannels(selector, command.fullName(), argv);
            }
            if (denial == null) {
                return null;
            }
            if (denial.reason().ordinal() > relevant.reason().ordinal()
                    || denial.reason() == relevant.reason() && denial.index() > relevant.index()) {
                relevant = denial;
            }
        }
        return relevant;
    }

    /**
     * Redis's ACLDoesCommandHaveChannels and the check of them: PUBLISH's and SPUBLISH's channel,
     * each (S)SUBSCRIBE channel, each PSUBSCRIBE pattern.
     */
    private static Denial checkChannels(Selector selector, String name, byte[][] argv) {
        int last = switch (name) {
            case "publish", "spublish" -> 1;
            case "subscribe", "ssubscribe", "psubscribe" -> argv.length - 1;
            default -> 0;
        };
        boolean literal = name.equals("psubscribe");
        for (int i = 1; i <= last; i++) {
            if (!selector.allowsChannel(argv[i], literal)) {
                return new Denial(AclLog.Reason.CHANNEL, i);
            }
        }
        return null;
    }

    /** ACL CAT category: the commands and subcommands in it, in table order. */
    public List<String> commandsIn(AclCategory category) {
        return commands.all().stream().filter(c -> c.has(category.flag())).map(AclCommands.Entry::fullName).toList();
    }

    /** ACL LIST's line of a user, as the ACL file holds it. */
    public static String describe(User user) {
        return "user " + user.name() + " " + user.describe();
    }

    /**
     * Redis's ACLLoadConfiguredUsers, at start-up: the {@code user} lines of the configuration,
     * each a name and its rules, in order ({@code default} reset first if named). Throws with
     * Redis's text for the first rule refused.
     */
    public void loadConfigured(List<List<String>> lines) {
        List<String> seen = new ArrayList<>();
        for (List<String> words : lines) {
            String name = words.get(0);
            if (seen.contains(name)) {
                throw new AclException("Error in user declaration '" + name + "': Duplicate user found. A user can only"
                        + " be defined once in config files");
            }
            seen.add(name);
            if (Selector.hasSpaces(name)) {
                throw new AclException("Spaces not allowed in ACL usernames");
            }
            User user = users.get(name);
            if (user == null) {
                user = new User(name, commands, this);
                users.put(name, user);
            } else {
                user.apply("reset");
            }
            List<String> rules = words.subList(1, words.size());
            if (unclosedSelector(rules) >= 0) {
                throw new AclException("Error in user declaration '" + name + "': Unmatched parenthesis");
            }
            for (String rule : mergeSelectors(rules)) {
                try {
                    user.apply(rule);
                } catch (AclException e) {
                    throw new AclException("Error in user declaration '" + rule + "': " + e.getMessage());
                }
            }
        }
    }

    /**
     * Redis's ACLLoadFromFile (ACL LOAD, and aclfile at start-up): every line is checked into a
     * fresh set of users; on any error nothing changes and Redis's one-line description of all of
     * them is thrown. Otherwise the new users replace the old, the default user keeping its
     * identity (its clients stay); returns the users replaced, whose clients must go.
     */
    public List<User> loadFile(Path file, String shownName) {
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new AclException("Error loading ACLs, opening file '" + shownName + "': " + IoErrors.strerror(e));
        }
        TreeMap<String, User> loaded = new TreeMap<>();
        StringBuilder errors = new StringBuilder();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String line = strip(lines[i], " \t\r\n");
            if (line.isEmpty()) {
                continue;
            }
            List<String> words = List.of(line.split(" ", -1));
            if (!words.get(0).equals("user") || words.size() < 2) {
                errors.append(shownName).append(':').append(number)
                        .append(" should start with user keyword followed by the username. ");
                continue;
            }
            String name = words.get(1);
            if (Selector.hasSpaces(name)) {
                errors.append("'").append(shownName).append(':').append(number).append(": username '")
                        .append(Latin1.cString(name)).append("' contains invalid characters. ");
                continue;
            }
            if (loaded.containsKey(name)) {
                errors.append("WARNING: Duplicate user '").append(name).append("' found on line ").append(number)
                        .append(". ");
                continue;
            }
            User user = new User(name, commands, this);
            loaded.put(name, user);
            List<String> rules = words.subList(2, words.size());
            if (unclosedSelector(rules) >= 0) {
                errors.append(shownName).append(':').append(number)
                        .append(": Unmatched parenthesis in selector definition.");
                continue;
            }
            // As Redis 7.0.15: an unknown command is reported each time, naming the rule; of the
            // other errors only a line's first, since it may cause those after it.
            boolean reported = false;
            for (String merged : mergeSelectors(rules)) {
                String rule = strip(merged, "\t\r\n");
                try {
                    user.apply(rule);
                } catch (AclException e) {
                    boolean unknown = e.getMessage().equals(AclException.UNKNOWN_COMMAND);
                    if (unknown || !reported) {
                        errors.append(shownName).append(':').append(number).append(": ");
                        if (unknown) {
                            errors.append("Error in applying operation '").append(Latin1.cString(rule))
                                    .append("': ");
                        }
                        errors.append(e.getMessage()).append(". ");
                        reported |= !unknown;
                    }
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new AclException(errors
                    + "WARNING: ACL errors detected, no change to the previously active ACL rules was performed");
        }
        User newDefault = loaded.get(DEFAULT);
        defaultUser.copyFrom(newDefault != null ? newDefault : createDefaultUser());
        loaded.put(DEFAULT, defaultUser);
        List<User> replaced = new ArrayList<>(users.values());
        replaced.remove(defaultUser);
        users = loaded;
        return replaced;
    }

    /** C's sdstrim: the characters of {@code set} cut from both ends. */
    private static String strip(String s, String set) {
        int start = 0;
        int end = s.length();
        while (start < end && set.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && set.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    /**
     * Redis's ACLSaveToFile: every user's ACL LIST line into a temporary file beside the ACL file,
     * forced to disk, then renamed over it, so the file is always whole, the old or the new.
     */
    public void saveFile(Path file) throws IOException {
        StringBuilder text = new StringBuilder();
        users.values().forEach(u -> text.append(describe(u)).append('\n'));
        Path temp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                + System.currentTimeMillis());
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(Latin1.bytes(text.toString()));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
