package io.kvd.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import io.kvd.server.admin.Version;
import io.kvd.server.aof.AofCheck;
import io.kvd.server.config.Config;
import io.kvd.server.config.ConfigException;
import io.netty.util.ResourceLeakDetector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code java -jar kvd.jar [config-file] [--name value ...]}, as redis-server takes them: the
 * options override the file. SIGTERM and SIGINT stop the server cleanly and exit 0.
 * {@code java -jar kvd.jar --check-aof [--fix] FILE} checks (and repairs) an AOF instead.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        List<String> argList = Arrays.asList(args);
        if (!argList.isEmpty() && argList.get(0).equals("--check-aof")) {
            System.exit(checkAof(argList.subList(1, argList.size())));
        }
        Path file = null;
        if (!argList.isEmpty() && !argList.get(0).startsWith("--")) {
            file = Path.of(argList.get(0));
            argList = argList.subList(1, argList.size());
        }
        Config config;
        try {
            config = Config.load(file, argList);
        } catch (ConfigException e) {
            System.err.println("kvd: bad configuration: " + e.getMessage());
            System.exit(1);
            return;
        }
        String supervised = config.get("supervised");
        if (config.daemonize() && System.getenv(Daemon.READY_FILE) == null
                && !Supervision.wanted(supervised, System.getenv())) {
            System.exit(Daemon.detach(args));
        }
        configureLogging(config);
        Logger log = LoggerFactory.getLogger(Main.class);
        log.info("kvd {} starting, Redis {} compatible", Version.KVD, Version.REDIS);
        List<String> inert = config.inertSettings();
        if (!inert.isEmpty()) {
            log.warn("Read but not acted on by kvd (docs/configuration.md): {}", String.join(", ", inert));
        }
        disableLeakDetectionUnlessAsked();
        HeapTuning.apply(log);
        Supervision supervision = Supervision.start(supervised, System.getenv(), log);

        // A shutdown hook would run too late to choose the exit code; handling the signals lets
        // SIGTERM end as SHUTDOWN does: the loop finishes its iteration, connections close, exit 0.
        // Handled from before the start (an AOF replay may take a while): a signal that comes
        // before the server runs stops it as soon as it does.
        AtomicReference<String> stopRequested = new AtomicReference<>();
        AtomicReference<KvdServer> running = new AtomicReference<>();
        for (String signal : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(signal), s -> {
                stopRequested.set("SIG" + signal);
                KvdServer started = running.get();
                if (started != null) {
                    started.signalled("SIG" + signal);
                }
            });
        }
        KvdServer server;
        try {
            server = KvdServer.start(config);
        } catch (ListenFailedException e) {
            // Without the PID, as Redis, which binds before its logo: a harness waiting for it retries on another port.
            log.error("kvd cannot start: {}", e.getMessage());
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            // With the PID, as Redis's logo has it printed before a load fails: tools wait for it, then for the exit.
            log.error("kvd cannot start, PID: {}: {}", ProcessHandle.current().pid(), e.getMessage());
            System.exit(1);
            return;
        }
        running.set(server);
        Daemon.announceReady();
        supervision.ready(!config.get(Config.REPLICAOF).isEmpty());
        if (stopRequested.get() != null) {
            server.signalled(stopRequested.get());
        }
        server.closed().join();
        supervision.stopping();
        supervision.close();
        System.exit(0);
    }

    private static int checkAof(List<String> args) {
        boolean fix = !args.isEmpty() && args.get(0).equals("--fix");
        List<String> files = fix ? args.subList(1, args.size()) : args;
        if (files.size() != 1) {
            System.err.println("Usage: java -jar kvd.jar --check-aof [--fix] FILE");
            return 1;
        }
        return AofCheck.run(Path.of(files.get(0)), fix, System.out);
    }

    /**
     * Applies {@code loglevel} (Redis's words), now and at each CONFIG SET, and {@code logfile}
     * (appended to, as Redis does; "" is standard output).
     */
    private static void configureLogging(Config config) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(level(config.loglevel()));
        config.onChange(name -> {
            if (name.equals(Config.LOGLEVEL)) {
                root.setLevel(level(config.loglevel()));
            }
        });
        if (config.logfile() != null) {
            // Same format as the console appender of logback.xml, to a file instead.
            OutputStreamAppender<ILoggingEvent> console =
                    (OutputStreamAppender<ILoggingEvent>) root.getAppender("CONSOLE");
            FileAppender<ILoggingEvent> fileAppender = new FileAppender<>();
            fileAppender.setContext(context);
            fileAppender.setFile(config.logfile().toString());
            fileAppender.setAppend(true);
            fileAppender.setEncoder(console.getEncoder());
            fileAppender.start();
            root.addAppender(fileAppender);
            root.detachAppender(console);
        }
        if (config.get("syslog-enabled").equals("yes")) {
            if (SyslogAppender.available()) {
                SyslogAppender syslog = new SyslogAppender(SyslogAppender.DEV_LOG, config.get("syslog-ident"),
                        config.get("syslog-facility"));
                syslog.setContext(context);
                syslog.start();
                root.addAppender(syslog);
            } else {
                LoggerFactory.getLogger(Main.class).warn("syslog-enabled: no UNIX datagram sockets here (the epoll "
                        + "transport is unavailable), so nothing goes to the system log");
            }
        }
    }

    /** Redis's verbosity to logback's level: debug, verbose, notice, warning. */
    private static Level level(String loglevel) {
        return switch (loglevel) {
            case "debug" -> Level.TRACE;
            case "verbose" -> Level.DEBUG;
            case "warning" -> Level.WARN;
            default -> Level.INFO;
        };
    }

    /**
     * Netty's default leak detection takes a stack trace of one buffer allocation in 128: with 1,000
     * slow clients, one per 128 one-byte reads, 3% of the loop's time. The tests keep it on, and
     * {@code -Dio.netty.leakDetection.level=...} turns it back on here.
     */
    private static void disableLeakDetectionUnlessAsked() {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
