package io.kvd.server.admin;

/** Versions INFO and the startup line report. */
public final class Version {
    /** kvd's own version, from the jar manifest (a dev build has none). */
    public static final String KVD = versionFromManifest();
    /** The Redis version whose semantics kvd follows: clients gate features on redis_version. */
    public static final String REDIS = "7.0.15";

    private Version() {
    }

    private static String versionFromManifest() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "0.1.0-dev";
    }
}
