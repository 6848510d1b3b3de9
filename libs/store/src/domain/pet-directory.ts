/**
 * What the store asks of the pets module, in its own words: a port of its own, plain TypeScript, adapted to the
 * pets module's PetCatalog in infrastructure/. Each change is one conditional write, true for the one caller whose
 * call made it; inside the store's unit of work it commits or is undone with the order.
 */
export abstract class PetDirectory {
  abstract exists(petId: bigint): Promise<boolean>;
  /** available → pending */
  abstract reserve(petId: bigint): Promise<boolean>;
  /** pending → available */
  abstract release(petId: bigint): Promise<boolean>;
  /** pending → sold */
  abstract sell(petId: bigint): Promise<boolean>;
}
