import KeyVault

enum KeyVaultFacade {
    static func generateMasterKey() -> String { MasterKey.generate() }
}
