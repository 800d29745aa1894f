/// The control schema `storegate`: tenants, API keys, apps, key material, webhook tokens, audit log.
public enum ControlChain {
    public static let schema = "storegate"

    public static let chain = MigrationChain(migrations)
}

/// The chain every tenant schema runs. Each statement names `{{schema}}`.
public enum TenantChain {
    public static let chain = MigrationChain(migrations)
}
