// The global names @types/node declares, kept beside the kernels' compiled copy: a report kernel whose notebook names
// none of them starts without @types/node (report/kernel-node-types.ts).
import type * as TypeScript from "typescript";

/** The file the global names are kept in, inside a compiled copy of src/ (build/kernels/copy.ts). */
export const NODE_GLOBALS_FILE = "node-globals.json";

/** Whether `fileName` is one of @types/node's declaration files. */
export function isNodeTypesFile(fileName: string): boolean {
  return /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(fileName);
}

/**
 * The names declaration files add to the global scope: top-level declarations of scripts (not modules), and those in
 * `declare global { }` blocks, also within `declare module "x" { }`. Parsed files only, no type checker.
 */
export function globalDeclarationNames(
  api: Pick<typeof TypeScript, "isExternalModule" | "SyntaxKind" | "NodeFlags">,
  files: readonly TypeScript.SourceFile[],
): string[] {
  const { SyntaxKind, NodeFlags } = api;
  const declarationKinds = [
    SyntaxKind.FunctionDeclaration,
    SyntaxKind.ClassDeclaration,
    SyntaxKind.InterfaceDeclaration,
    SyntaxKind.TypeAliasDeclaration,
    SyntaxKind.EnumDeclaration,
  ];
  const names = new Set<string>();
  const named = (node: { name?: TypeScript.Node }) => {
    if (node.name && node.name.kind === SyntaxKind.Identifier) names.add((node.name as TypeScript.Identifier).text);
  };
  const visit = (statements: readonly TypeScript.Statement[], global: boolean): void => {
    for (const statement of statements) {
      if (statement.kind === SyntaxKind.ModuleDeclaration) {
        const module = statement as TypeScript.ModuleDeclaration;
        const body = module.body && module.body.kind === SyntaxKind.ModuleBlock ? module.body : undefined;
        if (module.flags & NodeFlags.GlobalAugmentation) {
          if (body) visit((body as TypeScript.ModuleBlock).statements, true);
        } else if (module.name.kind === SyntaxKind.StringLiteral) {
          // `declare module "buffer" { ... }`: its own names are the module's; its `global { }` blocks are not.
          if (body) visit((body as TypeScript.ModuleBlock).statements, false);
        } else if (global) named(module); // namespace NodeJS { ... }
        continue;
      }
      if (!global) continue;
      if (statement.kind === SyntaxKind.VariableStatement) {
        (statement as TypeScript.VariableStatement).declarationList.declarations.forEach(named);
      } else if (declarationKinds.includes(statement.kind)) named(statement as TypeScript.DeclarationStatement);
    }
  };
  for (const file of files) visit(file.statements, !api.isExternalModule(file));
  return [...names].sort();
}
