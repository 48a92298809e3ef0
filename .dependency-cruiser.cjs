// Import rules checked by `npm run lint:imports` (part of `npm run lint`, so CI fails on a new cycle).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make load order matter and hide layering mistakes; split the shared part out.",
      from: {},
      to: { circular: true },
    },
    {
      name: "contract-stays-pure",
      severity: "error",
      comment:
        "@oisr/contract is bundled into browsers (mock, SDK): no Node built-ins, no server/mock/sdk code.",
      from: { path: "^packages/contract/src" },
      to: {
        path: "^(node:|packages/(server|mock-server|sdk|cli|contract-tests)/)",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "domain-stays-pure",
      severity: "error",
      comment: "@oisr/domain holds business rules only: no I/O, no Node built-ins, no HTTP layers.",
      from: { path: "^packages/domain/src" },
      to: { path: "^(node:|packages/(server|mock-server|sdk|cli|contract-tests)/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".mts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
