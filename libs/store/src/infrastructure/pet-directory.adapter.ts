import { Injectable } from '@nestjs/common';
import { PetCatalog } from '@app/pets';
import { PetDirectory } from '../domain/pet-directory';

/** The store's PetDirectory on the pets module's PetCatalog; inside the store's unit of work its writes join it. */
@Injectable()
export class PetDirectoryAdapter extends PetDirectory {
  constructor(private readonly catalog: PetCatalog) {
    super();
  }

  exists(petId: bigint): Promise<boolean> {
    return this.catalog.exists(petId);
  }

  reserve(petId: bigint): Promise<boolean> {
    return this.catalog.reserve(petId);
  }

  release(petId: bigint): Promise<boolean> {
    return this.catalog.release(petId);
  }

  sell(petId: bigint): Promise<boolean> {
    return this.catalog.sell(petId);
  }
}
