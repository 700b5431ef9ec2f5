export * from "./load";
export * from "./defaults";
