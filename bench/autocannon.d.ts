// autocannon ships no types and @types/autocannon is not installed: typed loosely here.
declare module "autocannon";
