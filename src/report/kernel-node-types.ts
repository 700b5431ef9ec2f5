// Whether a report kernel needs @types/node at all. Parsing its 2.3 MB of declarations was about 1.3 s of each
// kernel's 4.4 s of CPU before any notebook work. A notebook that imports only project files and names none of the
// globals @types/node declares is checked the same without it (src/'s declarations then read Node's types as `any`,
// which skipLibCheck never reports).
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

/** The file the global names are kept in, inside a compiled copy of src/ (kernel-sources.ts). */
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

let loaded: typeof TypeScript | undefined;
/** Loaded on first use: the compiling worker imports this module and does not need it. */
function typescript(): typeof TypeScript {
  return (loaded ??= createRequire(import.meta.url)("typescript") as typeof TypeScript);
}

/** Identifiers and module specifiers a piece of notebook code uses, from a real parse (not a regex). */
function codeReferences(code: string): { identifiers: Set<string>; modules: string[] } {
  const ts = typescript();
  const file = ts.createSourceFile("cell.ts", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const identifiers = new Set<string>();
  const modules: string[] = [];
  const visit = (node: TypeScript.Node): void => {
    if (ts.isIdentifier(node)) identifiers.add(node.text);
    else if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) modules.push(node.moduleSpecifier.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      modules.push(node.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression;
      const isLoad =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");
      // A dynamic specifier could name anything: count it as a package.
      if (isLoad) modules.push(ts.isStringLiteral(node.arguments[0]) ? node.arguments[0].text : "?");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { identifiers, modules };
}

/**
 * Whether code cells `codes` need @types/node: when any imports a non-relative path, or names one of `nodeGlobals`
 * anywhere (conservative: a property called `process` keeps them too).
 */
export function needsNodeTypes(codes: readonly string[], nodeGlobals: ReadonlySet<string>): boolean {
  for (const code of codes) {
    const { identifiers, modules } = codeReferences(code);
    if (modules.some((specifier) => !specifier.startsWith("./") && !specifier.startsWith("../"))) return true;
    for (const name of identifiers) if (nodeGlobals.has(name)) return true;
  }
  return false;
}
