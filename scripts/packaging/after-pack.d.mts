// Types of after-pack.mjs for the tests that import it (src-main/install/after-pack.test.ts).
export declare const NATIVE_MODULE: string;
export declare const ADDON: string;
export type BinaryFormat = 'elf' | 'mach-o' | 'pe';
export declare function archName(arch: number): string;
export declare function nodePlatform(electronPlatformName: string): string;
export declare function unpackedModuleDir(resourcesDir: string): string;
export declare function scratchDir(projectDir: string, platform: string, arch: string): string;
export declare function expectedFormat(platform: string): BinaryFormat;
export declare function binaryFormat(head: Uint8Array): BinaryFormat | null;
/** The part of electron-builder's AfterPackContext the hook reads. */
export interface AfterPackContextLike {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: {
    info: { projectDir: string; framework: { version: string } };
    getResourcesDir(appOutDir: string): string;
  };
}
export declare function afterPack(context: AfterPackContextLike): Promise<void>;
