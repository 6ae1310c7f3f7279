// What SHOW FUNCTIONS lists for each function signature (Trino's columns).

export interface FunctionInfo {
  name: string;
  returnType: string;
  argumentTypes: string[];
  functionType: 'scalar' | 'aggregate' | 'window';
  deterministic: boolean;
  description: string;
}
