// The top-level statements of a TS/JS file (TypeScript's parser) and which are functions or classes; other languages
// get no parse. TypeScript is required and typed by the few members used, so this compiles under tslab's TS 5.0.
import { projectRequire } from "../core/project";

/** File name endings parsed with the TypeScript compiler. */
const TS_JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Endings of source files of any language: typed `code` by the classifier. */
export const SOURCE_EXTENSIONS = [
  ...TS_JS_EXTENSIONS,
  ...".py .go .java .rs .rb .php .c .h .cc .cpp .hpp .cs .kt .swift .scala .sh".split(" "),
];

export interface CodeUnit {
  /** from the statement's leading comments (its full start), so a doc comment stays with its function */
  start: number;
  end: number;
  /** the statement's own text `[codeStart, codeEnd)`, without leading trivia */
  codeStart: number;
  codeEnd: number;
  /** a function or class declaration, or a statement whose value is a function or class expression */
  isFunctionOrClass: boolean;
}

interface TsNode {
  kind: number;
  pos: number;
  end: number;
  getStart(sourceFile?: TsNode): number;
  forEachChild<T>(cb: (node: TsNode) => T | undefined): T | undefined;
}
interface TsSourceFile extends TsNode {
  statements: TsNode[];
}
interface TsModule {
  createSourceFile(name: string, text: string, target: number, setParents?: boolean, kind?: number): TsSourceFile;
  ScriptTarget: { Latest: number };
  ScriptKind: { TS: number; TSX: number; JS: number; JSX: number };
  SyntaxKind: Record<string, number>;
}

let cached: TsModule | undefined;
const typescript = (): TsModule => (cached ??= projectRequire()("typescript") as TsModule);

const endsWithAny = (path: string, endings: readonly string[]) => endings.some((e) => path.toLowerCase().endsWith(e));

export const isTsJsPath = (path: string): boolean => endsWithAny(path, TS_JS_EXTENSIONS);

export const isSourcePath = (path: string): boolean => endsWithAny(path, SOURCE_EXTENSIONS);

function scriptKind(ts: TsModule, path: string): number {
  const lower = path.toLowerCase();
  if (lower.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (lower.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[mc]?ts$/.test(lower)) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

/** The top-level statements of a TS/JS text, tiling it; a parse error does not throw (TypeScript recovers). */
export function codeUnits(text: string, path: string): CodeUnit[] {
  const ts = typescript();
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(ts, path));
  const K = ts.SyntaxKind;
  const functionish = new Set([
    K.FunctionDeclaration,
    K.ClassDeclaration,
    K.FunctionExpression,
    K.ArrowFunction,
    K.ClassExpression,
    K.MethodDeclaration,
  ]);
  const holdsFunction = (node: TsNode): boolean =>
    functionish.has(node.kind) || node.forEachChild((child) => (holdsFunction(child) ? true : undefined)) === true;
  const statements = file.statements;
  const units: CodeUnit[] = statements.map((node, i) => ({
    start: i === 0 ? 0 : node.pos,
    end: i + 1 < statements.length ? statements[i + 1].pos : text.length,
    codeStart: node.getStart(file),
    codeEnd: node.end,
    isFunctionOrClass: holdsFunction(node),
  }));
  if (units.length === 0 && text.length > 0)
    units.push({ start: 0, end: text.length, codeStart: 0, codeEnd: text.length, isFunctionOrClass: false });
  return units;
}
