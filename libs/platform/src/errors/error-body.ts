/** The one error shape of the contract: `status` always equals the HTTP status. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}
