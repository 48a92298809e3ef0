// Problem details as the server sends them: the error, its body and its texts are @oisr/contract's;
// the pipeline (core.ts) puts the body on a Fetch Response.
export {
  type FieldError,
  HttpProblem,
  notFound,
  PROBLEM_TITLES,
  problemBody,
  validationFailed,
} from "@oisr/contract";
