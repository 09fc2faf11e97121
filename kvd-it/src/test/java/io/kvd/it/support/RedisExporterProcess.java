package io.kvd.it.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's {@code prometheus-redis-exporter} (redis_exporter 1.45) watching one server, serving its
 * metrics on an ephemeral port. Tests that need it are skipped where it is not installed
 * ({@code .ci/run} installs it).
 */
public final class RedisExporterProcess implements AutoCloseable {
    public static final String PROGRAM = "/usr/bin/prometheus-redis-exporter";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();

    private final LoggedProcess process;
    private final int port;

    private RedisExporterProcess(LoggedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts an exporter for the server on {@code serverPort}; ready once its landing page answers (which scrapes nothing). */
    public static RedisExporterProcess start(int serverPort) {
        Path exporter = Tools.require(PROGRAM, "apt-get install prometheus-redis-exporter");
        Path dir = WorkDir.create("redis-exporter");
        FreePortStart.Started started = FreePortStart.start("redis-exporter", dir, START_TIMEOUT,
                port -> List.of(exporter.toString(), "--redis.addr=redis://127.0.0.1:" + serverPort,
                        "--web.listen-address=127.0.0.1:" + port),
                port -> get(port, "/") != null);
        return new RedisExporterProcess(started.process(), started.port());
    }

    /**
     * One scrape, asked again until the exporter answers: it asks the server (INFO ALL, CONFIG GET,
     * SLOWLOG, ...) and answers in Prometheus's text format.
     */
    public String metrics() {
        return Poll.until(START_TIMEOUT, "the exporter to answer /metrics", () -> {
            if (!process.isAlive()) {
                throw new AssertionError("the exporter exited: " + process.describe());
            }
            return get(port, "/metrics");
        });
    }

    public String log() {
        return process.logText();
    }

    @Override
    public void close() {
        process.stop(STOP_TIMEOUT);
    }

    /** The body of a 200 answer, or null when nothing (or something else) answers. */
    private static String get(int port, String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(REQUEST_TIMEOUT).build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while asking the exporter for " + path, e);
        }
    }
}
