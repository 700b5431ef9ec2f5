export * from "./types";
export * from "./lsa";
export * from "./openai-compatible";
export * from "./vector-cache";
export * from "./select";
export * from "./input-limit";
export { checkModelDir } from "./transformers";
